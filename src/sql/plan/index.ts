/** Planning: SELECT / UPDATE / DELETE row sources as immutable physical plan trees, and EXPLAIN. */
export type { PlanNode, PlanKind, ReaderNode, RangeSpec, RangeBound, PointValue, KeyColumn, AggSpec, SortItem, AccessBase, WindowFunc, SubqueryPlan, IndexJoinSpec } from './nodes.js';
export { isReader } from './nodes.js';
export { RowSchema, tableSchema, positionRef, EMPTY_SCHEMA, AGG_TABLE, VALUES_TABLE, POS_TABLE, type SchemaColumn, type ColumnRef } from './row-schema.js';
export { buildSelect } from './builder-select.js';
export { buildDmlSource, type DmlSource } from './builder-dml.js';
export { explainRows, rangeText, EXPLAIN_COLUMNS, type ExplainTop } from './explain.js';
export { planSummary } from './plan-summary.js';
export { resolveTable, noSuchTable, unknownColumn } from './resolve-table.js';
export { INFORMATION_SCHEMA, isInformationSchema, isVirtualTable, virtualTable, virtualTableName, virtualTableNames } from './info-schema.js';
export { extractRanges } from './ranges.js';
export { handleColumns, primaryIndex } from './key-columns.js';
export { mapExpr, splitConjunction, rejectSubqueries, exprKey } from './expr-utils.js';
export { planRowSubqueries, type RowSubqueries } from './builder-dml-subquery.js';
export { buildQuery } from './builder-select.js';
export { rejectViewTarget } from './builder-view.js';
