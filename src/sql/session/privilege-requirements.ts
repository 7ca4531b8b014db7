/**
 * What each statement needs, as MySQL maps it: SELECT on every table read (FROM, joins,
 * subqueries, INSERT ... SELECT), INSERT / UPDATE / DELETE on the written table (REPLACE also
 * DELETE, ON DUPLICATE KEY UPDATE also UPDATE), CREATE / DROP / INDEX for DDL (TRUNCATE is DROP),
 * some privilege on a database to list or describe it, SUPER or SYSTEM_VARIABLES_ADMIN for
 * SET GLOBAL. information_schema is always readable. A statement kind not listed here needs
 * SUPER, so a new statement is never silently open to every account.
 */
import type { ShowStmt, Statement, TableName } from '../parse/index.js';

export type Requirement =
  /** `priv` on the table (global, database or table grant); denied: 1142. */
  | { readonly kind: 'table'; readonly priv: string; readonly db: string; readonly table: string }
  /** `priv` on the database (global or database grant); denied: 1044. */
  | { readonly kind: 'db'; readonly priv: string; readonly db: string }
  /** Some privilege on the database or one of its tables; denied: 1044. */
  | { readonly kind: 'anyOnDb'; readonly db: string }
  /** One of these global privileges; denied: 1227. */
  | { readonly kind: 'global'; readonly anyOf: readonly string[] };

const SET_GLOBAL: Requirement = { kind: 'global', anyOf: ['SUPER', 'SYSTEM_VARIABLES_ADMIN'] };
const SUPER: Requirement = { kind: 'global', anyOf: ['SUPER'] };

const FREE_KINDS: ReadonlySet<string> = new Set([
  'use', 'begin', 'commit', 'rollback', 'savepoint', 'rollbackToSavepoint', 'releaseSavepoint', 'setNames', 'noop',
  'kill', 'account',
]);

export function isInformationSchema(db: string): boolean {
  return db.toLowerCase() === 'information_schema';
}

export function requirementsOf(stmt: Statement, currentDb: string | null): Requirement[] {
  const out: Requirement[] = [];
  const onTable = (priv: string, t: TableName): void => {
    const db = t.db ?? currentDb;
    if (db !== null && !isInformationSchema(db)) out.push({ kind: 'table', priv, db, table: t.name });
  };
  const reads = (node: unknown): void => {
    for (const t of readTables(node)) onTable('SELECT', t);
  };
  if (FREE_KINDS.has(stmt.kind)) return out;
  switch (stmt.kind) {
    case 'select':
      reads(stmt);
      break;
    case 'insert':
      onTable('INSERT', stmt.table);
      if (stmt.replace) onTable('DELETE', stmt.table);
      if (stmt.onDuplicate.length > 0) onTable('UPDATE', stmt.table);
      reads(stmt);
      break;
    case 'update':
      onTable('UPDATE', stmt.table);
      reads(stmt);
      break;
    case 'delete':
      onTable('DELETE', stmt.table);
      reads(stmt);
      break;
    case 'explain':
      return requirementsOf(stmt.stmt, currentDb);
    case 'createTable':
      onTable('CREATE', stmt.table);
      break;
    case 'createIndex':
    case 'dropIndex':
      onTable('INDEX', stmt.table);
      break;
    case 'dropTable':
      for (const t of stmt.tables) onTable('DROP', t);
      break;
    case 'truncate':
      onTable('DROP', stmt.table);
      break;
    case 'alterTable':
      onTable('ALTER', stmt.table);
      for (const op of stmt.ops) if (op.op === 'renameTable') onTable('CREATE', op.to);
      break;
    case 'renameTable':
      for (const p of stmt.pairs) {
        onTable('ALTER', p.from);
        onTable('DROP', p.from);
        onTable('CREATE', p.to);
        onTable('INSERT', p.to);
      }
      break;
    case 'createView':
      onTable('CREATE VIEW', stmt.view);
      if (stmt.orReplace) onTable('DROP', stmt.view);
      reads(stmt.select);
      break;
    case 'dropView':
      for (const t of stmt.views) onTable('DROP', t);
      break;
    case 'createDatabase':
      if (!isInformationSchema(stmt.name)) out.push({ kind: 'db', priv: 'CREATE', db: stmt.name });
      break;
    case 'dropDatabase':
      if (!isInformationSchema(stmt.name)) out.push({ kind: 'db', priv: 'DROP', db: stmt.name });
      break;
    case 'set':
      if (stmt.assignments.some((a) => a.scope === 'global')) out.push(SET_GLOBAL);
      break;
    case 'setTransaction':
      if (stmt.scope === 'global') out.push(SET_GLOBAL);
      break;
    case 'show':
      showRequirements(stmt, currentDb, out, onTable);
      break;
    case 'admin':
      if (stmt.stmt.op === 'checkTable') for (const t of stmt.stmt.tables) onTable('SELECT', t);
      else out.push(SUPER);
      break;
    default:
      out.push(SUPER);
  }
  return out;
}

function showRequirements(
  stmt: ShowStmt,
  currentDb: string | null,
  out: Requirement[],
  onTable: (priv: string, t: TableName) => void,
): void {
  const anyOnDb = (db: string | null | undefined): void => {
    if (db !== null && db !== undefined && !isInformationSchema(db)) out.push({ kind: 'anyOnDb', db });
  };
  switch (stmt.target) {
    case 'tables':
    case 'tableStatus':
    case 'createDatabase':
      anyOnDb(stmt.db ?? currentDb);
      break;
    case 'columns':
    case 'index':
    case 'createTable':
      if (stmt.table !== undefined) onTable('SELECT', { name: stmt.table.name, db: stmt.table.db ?? stmt.db ?? currentDb ?? undefined });
      break;
    default:
      break;
  }
}

/** Every table named in a FROM clause anywhere in the statement (joins, derived tables, subqueries). */
export function readTables(node: unknown): TableName[] {
  const out: TableName[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) {
      for (const x of v) walk(x);
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    const proto: unknown = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return;
    const o = v as { readonly [key: string]: unknown };
    const table = o['table'];
    if (o['kind'] === 'table' && isTableName(table)) out.push(table);
    for (const key of Object.keys(o)) walk(o[key]);
  };
  walk(node);
  return out;
}

function isTableName(v: unknown): v is TableName {
  if (typeof v !== 'object' || v === null) return false;
  const t = v as { readonly name?: unknown; readonly db?: unknown };
  return typeof t.name === 'string' && (t.db === undefined || typeof t.db === 'string');
}
