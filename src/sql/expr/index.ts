/**
 * Expression evaluation: compile once to closures, MySQL NULL/comparison/arithmetic rules,
 * casts, store assignment, aggregates and built-in functions. See ARCHITECTURE in
 * `.tmp/contracts.md` ("expr").
 */
export type { ColumnBinding, Scope, EvalContext, Evaluator, TypeInfo } from './types.js';
export { compileExpr } from './compile.js';
export { inferType, literalType, arithmeticType } from './infer-type.js';
export { compareValues, truthy, compareStrings } from './compare.js';
export { coerceToColumn } from './coerce-to-column.js';
export { castValue } from './cast.js';
export { createAggregator, aggregateType, type Aggregator } from './aggregate.js';
export { valueToString, formatDouble, formatDecimal } from './value-to-string.js';
export { exprText } from './expr-text.js';
export { parseDateTime, parseTime } from './parse-datetime.js';
export { functionNames } from './functions/registry.js';
