/**
 * ShaleDB's own typed, immutable SQL AST. `sql/parse` builds it (from node-sql-parser's loose
 * output or from the hand-written fast paths); every other layer reads only these types.
 * Every node is tagged by `kind`; consumers switch over `kind` and end with `assertNever`.
 * Identifiers are kept as written (case preserved, quotes removed).
 */
import type { ColumnType, Value } from '../../types/index.js';
import type { AccountStatement } from './ast-account.js';
import type { AdminStatement } from './ast-admin.js';
import type { NamedWindow, WindowExpr } from './ast-window.js';
import type { AlterTableStmt, RenameTableStmt } from './ast-alter.js';
import type { CreateIndexStmt, CreateTableStmt, DropIndexStmt } from './ast-ddl.js';

export type { AccountName, AccountRef, AccountStatement, PrivilegeLevel, UserSpec } from './ast-account.js';
export type { AdminStatement, AdminCheckTable } from './ast-admin.js';
export type { FrameBound, NamedWindow, WindowAggName, WindowExpr, WindowFrame, WindowFuncName, WindowSpec } from './ast-window.js';
export type { AlterOp, AlterTableStmt, CheckDef, ColumnPosition, RenameTableStmt } from './ast-alter.js';
export type { ColumnDef, CreateIndexStmt, CreateTableStmt, DefaultDef, DropIndexStmt, ForeignKeyDef, IndexColumn, IndexDef } from './ast-ddl.js';

// ---------------------------------------------------------------------------------------------
// Expressions

export type BinaryOp =
  | '+' | '-' | '*' | '/' | 'DIV' | '%'
  | '=' | '<=>' | '<>' | '<' | '<=' | '>' | '>='
  | 'AND' | 'OR' | 'XOR'
  | '&' | '|' | '^' | '<<' | '>>';

export type UnaryOp = '-' | '+' | 'NOT' | '~' | 'BINARY';

export type AggName =
  | 'COUNT' | 'SUM' | 'AVG' | 'MIN' | 'MAX' | 'GROUP_CONCAT' | 'BIT_AND' | 'BIT_OR' | 'BIT_XOR'
  /** JSON_OBJECTAGG(k, v) arrives with `arg` = JSON_OBJECT(k, v). */
  | 'JSON_ARRAYAGG' | 'JSON_OBJECTAGG';

export type VarScope = 'user' | 'session' | 'global' | 'default';

export type Expr =
  /** A constant. Integer literals are bigint, `1.5` is Decimal, `1e3` is number, 'x' is string, x'ff' is Uint8Array. */
  | { readonly kind: 'literal'; readonly value: Value }
  /** A `?` placeholder (0-based, in text order) or a literal lifted out by the statement cache. */
  | { readonly kind: 'param'; readonly index: number }
  | { readonly kind: 'column'; readonly db?: string; readonly table?: string; readonly name: string }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly operand: Expr }
  | { readonly kind: 'isNull'; readonly expr: Expr; readonly not: boolean }
  /** `x IS [NOT] TRUE|FALSE` */
  | { readonly kind: 'isBool'; readonly expr: Expr; readonly value: boolean; readonly not: boolean }
  | { readonly kind: 'between'; readonly expr: Expr; readonly low: Expr; readonly high: Expr; readonly not: boolean }
  | { readonly kind: 'in'; readonly expr: Expr; readonly list: readonly Expr[]; readonly not: boolean }
  | { readonly kind: 'like'; readonly expr: Expr; readonly pattern: Expr; readonly escape?: Expr; readonly not: boolean }
  /** Scalar function call; `name` upper-cased (e.g. 'CONCAT', 'LAST_INSERT_ID', 'NOW'). */
  | { readonly kind: 'func'; readonly name: string; readonly args: readonly Expr[] }
  /** Aggregate; `arg` null means `COUNT(*)`. `separator` only for GROUP_CONCAT. */
  | {
      readonly kind: 'agg';
      readonly name: AggName;
      readonly arg: Expr | null;
      readonly distinct: boolean;
      readonly separator?: string;
      readonly orderBy?: readonly OrderItem[];
    }
  | {
      readonly kind: 'case';
      readonly operand?: Expr;
      readonly whens: ReadonlyArray<{ readonly when: Expr; readonly then: Expr }>;
      readonly else?: Expr;
    }
  | { readonly kind: 'cast'; readonly expr: Expr; readonly to: CastTarget }
  /** `@x` (user), `@@x` (default scope), `@@session.x`, `@@global.x`. `name` lower-cased for system vars. */
  | { readonly kind: 'variable'; readonly scope: VarScope; readonly name: string }
  /** `DEFAULT` as a value in INSERT/UPDATE, or `DEFAULT(col)` when `column` is set. */
  | { readonly kind: 'default'; readonly column?: string }
  /** `VALUES(col)` inside ON DUPLICATE KEY UPDATE. */
  | { readonly kind: 'valuesRef'; readonly column: string }
  /** A row constructor `(a, b)`. */
  | { readonly kind: 'row'; readonly items: readonly Expr[] }
  /** `INTERVAL expr unit`, only as an argument of DATE_ADD/DATE_SUB/+/-. Unit upper-cased. */
  | { readonly kind: 'interval'; readonly expr: Expr; readonly unit: string }
  /** `f(...) OVER (...)`: see ast-window.ts. */
  | WindowExpr
  /** Scalar subquery, `EXISTS (...)`, `x IN (SELECT ...)`. */
  | { readonly kind: 'subquery'; readonly query: SelectStmt }
  | { readonly kind: 'exists'; readonly query: SelectStmt; readonly not: boolean }
  /**
   * `x [NOT] IN (SELECT ...)`; with `cmp`, the quantified comparison `x cmp ANY|SOME|ALL (SELECT ...)`
   * (`all` false for ANY/SOME; `not` is then false).
   */
  | {
      readonly kind: 'inSubquery';
      readonly expr: Expr;
      readonly query: SelectStmt;
      readonly not: boolean;
      readonly cmp?: '=' | '<>' | '<' | '<=' | '>' | '>=';
      readonly all?: boolean;
    };

/** Target of CAST/CONVERT: a column type (SIGNED -> bigint, UNSIGNED -> bigint unsigned, CHAR, DECIMAL(m,d), DATE...). */
export type CastTarget = ColumnType;

// ---------------------------------------------------------------------------------------------
// SELECT

/** One table of `LOCK TABLES` (kept on the `noop` statement; session/table-locks.ts applies it). */
export interface LockedTable {
  readonly table: TableName;
  readonly write: boolean;
}

export interface TableName {
  readonly db?: string;
  readonly name: string;
}

export type FromItem =
  | { readonly kind: 'table'; readonly table: TableName; readonly alias?: string }
  /** `lateral`: LATERAL (subquery) alias — may read the columns of the FROM items to its left. */
  | { readonly kind: 'derived'; readonly query: SelectStmt; readonly alias: string; readonly columns?: readonly string[]; readonly lateral?: boolean }
  | {
      readonly kind: 'join';
      readonly joinType: 'inner' | 'left' | 'right' | 'cross';
      readonly left: FromItem;
      readonly right: FromItem;
      readonly on?: Expr;
      readonly using?: readonly string[];
    };

export type SelectItem =
  | { readonly kind: 'expr'; readonly expr: Expr; readonly alias?: string; readonly text: string }
  /** `*` or `t.*` */
  | { readonly kind: 'star'; readonly table?: string };

export interface OrderItem {
  readonly expr: Expr;
  readonly desc: boolean;
}

export interface Limit {
  readonly count: Expr;
  readonly offset?: Expr;
}

export interface SelectStmt {
  readonly kind: 'select';
  readonly distinct: boolean;
  readonly items: readonly SelectItem[];
  /** null for `SELECT 1` without FROM (or FROM DUAL). */
  readonly from: FromItem | null;
  readonly where?: Expr;
  readonly groupBy: readonly Expr[];
  readonly having?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: Limit;
  readonly lock?: 'update' | 'share';
  /** `SELECT SQL_CALC_FOUND_ROWS ...`: FOUND_ROWS() then counts the rows without the LIMIT. */
  readonly calcFoundRows?: boolean;
  /** `WINDOW w AS (...), ...` */
  readonly windows?: readonly NamedWindow[];
  /** UNION [ALL] chain: this select followed by the others. */
  readonly union?: ReadonlyArray<{ readonly all: boolean; readonly select: SelectStmt }>;
  /** WITH [RECURSIVE] common table expressions visible in this statement. */
  readonly with?: WithClause;
}

export interface WithClause {
  readonly recursive: boolean;
  readonly ctes: readonly CommonTableExpr[];
}

export interface CommonTableExpr {
  readonly name: string;
  readonly columns?: readonly string[];
  readonly query: SelectStmt;
}

// ---------------------------------------------------------------------------------------------
// DML

export interface Assignment {
  readonly column: string;
  readonly table?: string;
  readonly value: Expr;
}

export interface InsertStmt {
  readonly kind: 'insert';
  readonly table: TableName;
  /** Empty when the statement gave no column list. */
  readonly columns: readonly string[];
  /** VALUES rows; each expr may be `default`. Empty when `select` is used. */
  readonly rows: ReadonlyArray<readonly Expr[]>;
  readonly select?: SelectStmt;
  /** `INSERT ... SET a=1, b=2` is turned into columns + one row. */
  readonly ignore: boolean;
  readonly replace: boolean;
  readonly onDuplicate: readonly Assignment[];
}

export interface UpdateStmt {
  readonly kind: 'update';
  readonly table: TableName;
  readonly alias?: string;
  readonly set: readonly Assignment[];
  readonly where?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: Limit;
  readonly ignore: boolean;
}

export interface DeleteStmt {
  readonly kind: 'delete';
  readonly table: TableName;
  readonly alias?: string;
  readonly where?: Expr;
  readonly orderBy: readonly OrderItem[];
  readonly limit?: Limit;
}

// ---------------------------------------------------------------------------------------------
// DDL

// Column, index, foreign key definitions and CREATE TABLE / CREATE INDEX / DROP INDEX live in
// ast-ddl.ts.

// ---------------------------------------------------------------------------------------------
// Everything else

export type ShowTarget =
  | 'databases'
  | 'tables'
  | 'columns'
  | 'index'
  | 'createTable'
  | 'createView'
  | 'createDatabase'
  | 'variables'
  | 'status'
  | 'warnings'
  | 'errors'
  | 'engines'
  | 'collation'
  | 'charset'
  | 'tableStatus'
  | 'processlist'
  | 'grants'
  | 'plugins'
  | 'triggers'
  | 'procedureStatus'
  | 'functionStatus'
  | 'events'
  | 'openTables'
  | 'masterStatus'
  | 'replicaStatus';

export interface ShowStmt {
  readonly kind: 'show';
  readonly target: ShowTarget;
  readonly full: boolean;
  readonly global: boolean;
  /** SHOW COLUMNS/INDEX/CREATE TABLE FROM table. */
  readonly table?: TableName;
  /** SHOW TABLES FROM db / SHOW CREATE DATABASE db. */
  readonly db?: string;
  readonly like?: string;
  readonly where?: Expr;
}

export interface SetAssignment {
  readonly scope: VarScope;
  /** Lower-cased for system variables. */
  readonly name: string;
  /** `DEFAULT` is represented as `{ kind: 'default' }`. */
  readonly value: Expr;
}

/** CREATE [OR REPLACE] VIEW v [(cols)] AS select: `selectText` is the SELECT as written (stored in the catalog). */
export interface CreateViewStmt {
  readonly kind: 'createView';
  readonly view: TableName;
  readonly orReplace: boolean;
  readonly columns?: readonly string[];
  readonly select: SelectStmt;
  readonly selectText: string;
}

export type Statement =
  | SelectStmt
  | CreateViewStmt
  | { readonly kind: 'dropView'; readonly views: readonly TableName[]; readonly ifExists: boolean }
  | InsertStmt
  | UpdateStmt
  | DeleteStmt
  | CreateTableStmt
  | CreateIndexStmt
  | DropIndexStmt
  | AlterTableStmt
  | RenameTableStmt
  /** `charset`/`collation` (lower-cased) from [DEFAULT] CHARACTER SET / COLLATE, when given. */
  | {
      readonly kind: 'createDatabase';
      readonly name: string;
      readonly ifNotExists: boolean;
      readonly charset?: string;
      readonly collation?: string;
    }
  | { readonly kind: 'dropDatabase'; readonly name: string; readonly ifExists: boolean }
  | { readonly kind: 'dropTable'; readonly tables: readonly TableName[]; readonly ifExists: boolean }
  | { readonly kind: 'truncate'; readonly table: TableName }
  | { readonly kind: 'use'; readonly db: string }
  /** BEGIN, START TRANSACTION [READ ONLY|READ WRITE|WITH CONSISTENT SNAPSHOT]. */
  | { readonly kind: 'begin'; readonly readOnly: boolean }
  | { readonly kind: 'commit' }
  | { readonly kind: 'rollback' }
  | { readonly kind: 'savepoint'; readonly name: string }
  | { readonly kind: 'rollbackToSavepoint'; readonly name: string }
  | { readonly kind: 'releaseSavepoint'; readonly name: string }
  | { readonly kind: 'set'; readonly assignments: readonly SetAssignment[] }
  /** SET NAMES cs [COLLATE c] / SET CHARACTER SET cs. `charset` lower-cased; 'default' allowed. */
  | { readonly kind: 'setNames'; readonly charset: string; readonly collation?: string }
  /** SET [GLOBAL|SESSION] TRANSACTION ISOLATION LEVEL ... | READ ONLY | READ WRITE. */
  | {
      readonly kind: 'setTransaction';
      readonly scope: 'global' | 'session' | 'next';
      readonly isolation?: string;
      readonly readOnly?: boolean;
    }
  | ShowStmt
  | { readonly kind: 'explain'; readonly stmt: Statement; readonly analyze: boolean }
  /** Statements accepted and ignored with OK: LOCK/UNLOCK TABLES, ANALYZE TABLE, FLUSH, DO. */
  /** Accepted and ignored; `DO e1, e2` keeps its expressions (evaluated for their effects). */
  | { readonly kind: 'noop'; readonly what: string; readonly exprs?: readonly Expr[]; readonly lockTables?: readonly LockedTable[] }
  | { readonly kind: 'kill'; readonly connectionId: Expr; readonly queryOnly: boolean }
  | { readonly kind: 'account'; readonly stmt: AccountStatement }
  | { readonly kind: 'admin'; readonly stmt: AdminStatement };

export type StatementKind = Statement['kind'];
