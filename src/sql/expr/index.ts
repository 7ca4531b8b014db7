/**
 * Expression evaluation: compile once to closures, MySQL NULL/comparison/arithmetic rules,
 * casts, store assignment, aggregates and built-in functions. See ARCHITECTURE in
 * `.tmp/contracts.md` ("expr").
 */
export type { ColumnBinding, Scope, EvalContext, Evaluator, TypeInfo } from './types.js';
export { compileExpr } from './compile.js';
export { inferType, literalType, arithmeticType } from './infer-type.js';
export { declareSystemVariableKinds, type SystemVariableKind } from './system-var-types.js';
export { compareValues, compareValuesIn, valueComparator, truthy, compareStrings } from './compare.js';
export { holds } from './compile-predicates.js';
export { deriveCollation, comparisonCollation, combine, type Derivation } from './collation-derive.js';
export { coerceToColumn } from './coerce-to-column.js';
export { castValue } from './cast.js';
export { createAggregator, aggregateType, type Aggregator } from './aggregate.js';
export { removableAggregator, type RemovableAggregator } from './window-aggregate.js';
export { intervalShift, type KeyShift } from './window-interval.js';
export { valueToString, formatDouble, formatDecimal } from './value-to-string.js';
export { exprText } from './expr-text.js';
export { parseDateTime, parseTime } from './parse-datetime.js';
export { functionNames } from './functions/registry.js';
export { ASYNC_FUNCTION_NAMES, awaitedKey } from './functions/async-functions.js';
export { mergeTypes } from './merge-types.js';
export { enumSortType, numericView } from './enum-set.js';
