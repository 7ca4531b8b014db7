/**
 * Rows of the information_schema tables declared in sql/plan/info-schema-defs.ts, in their
 * column order, computed per statement from the statement's schema snapshot and the engine's
 * live state; the account sees only what it holds privileges on. Those tables are read-only.
 */
import type { Schema } from '../../catalog/index.js';
import { SqlError } from '../../errors/index.js';
import type { Statement } from '../parse/index.js';
import { INFORMATION_SCHEMA, isInformationSchema, virtualTable } from '../plan/index.js';
import type { Value } from '../../types/index.js';
import type { Grants } from './account-match.js';
import { visibilityOf, type Visibility } from './info-schema-access.js';
import { checkConstraintsRows, keyColumnUsageRows, referentialConstraintsRows, tableConstraintsRows } from './info-schema-constraints.js';
import {
  characterSetsRows, collationApplicabilityRows, collationsRows, enginesRows, pluginsRows, schemaPrivilegesRows,
  tablePrivilegesRows, userPrivilegesRows, variablesRows,
} from './info-schema-server.js';
import {
  columnsRows, partitionsRows, schemataRows, statisticsRows, tablesRows, type StatsOf,
} from './info-schema-tables.js';
import { viewRows } from './info-schema-views.js';
import type { ProcessInfo } from './show-server.js';

export interface InfoSchemaSource {
  /** The statement's schema snapshot. */
  readonly schema: Schema;
  readonly user: string;
  /** The connections the requester may see (all of them with PROCESS). */
  processList(): Promise<ProcessInfo[]>;
  /** The requester's privileges; undefined for the built-in superuser. */
  grants(): Promise<Grants | undefined>;
  /** SHOW [GLOBAL] VARIABLES' name/value pairs. */
  variables(global: boolean): Array<readonly [string, string]>;
  /** Row count estimate and next AUTO_INCREMENT value of a stored table. */
  readonly tableStats: StatsOf;
}

type Producer = (src: InfoSchemaSource, vis: Visibility, grants: Grants | undefined) => Value[][] | Promise<Value[][]>;

const NONE: Producer = () => [];

const PRODUCERS: ReadonlyMap<string, Producer> = new Map<string, Producer>([
  ['CHARACTER_SETS', () => characterSetsRows()],
  ['CHECK_CONSTRAINTS', (s, vis) => checkConstraintsRows(s.schema, vis)],
  ['COLLATIONS', () => collationsRows()],
  ['COLLATION_CHARACTER_SET_APPLICABILITY', () => collationApplicabilityRows()],
  ['COLUMNS', (s, vis) => columnsRows(s.schema, vis)],
  ['ENGINES', () => enginesRows()],
  ['EVENTS', NONE],
  ['FILES', NONE],
  ['GLOBAL_VARIABLES', (s) => variablesRows(s.variables(true))],
  ['KEY_COLUMN_USAGE', (s, vis) => keyColumnUsageRows(s.schema, vis)],
  ['PARAMETERS', NONE],
  ['PARTITIONS', (s, vis) => partitionsRows(s.schema, vis, s.tableStats)],
  ['PLUGINS', () => pluginsRows()],
  ['PROCESSLIST', async (s) => (await s.processList()).map((p) => [
    BigInt(p.id), p.user, p.host, p.db, p.command, BigInt(p.time), p.state, p.info,
  ])],
  ['REFERENTIAL_CONSTRAINTS', (s, vis) => referentialConstraintsRows(s.schema, vis)],
  ['ROUTINES', NONE],
  ['SCHEMATA', (s, vis) => schemataRows(s.schema, vis)],
  ['SCHEMA_PRIVILEGES', (_s, _vis, g) => schemaPrivilegesRows(g)],
  ['SESSION_VARIABLES', (s) => variablesRows(s.variables(false))],
  ['STATISTICS', (s, vis) => statisticsRows(s.schema, vis, s.tableStats)],
  ['TABLES', (s, vis) => tablesRows(s.schema, vis, s.tableStats)],
  ['TABLE_CONSTRAINTS', (s, vis) => tableConstraintsRows(s.schema, vis)],
  ['TABLE_PRIVILEGES', (_s, _vis, g) => tablePrivilegesRows(g)],
  ['TRIGGERS', NONE],
  ['USER_PRIVILEGES', (s, _vis, g) => userPrivilegesRows(s.user, g)],
  ['VIEWS', (s, vis) => viewRows(s.schema, vis)],
]);

export async function infoSchemaRows(table: string, source: InfoSchemaSource): Promise<Value[][]> {
  const produce = PRODUCERS.get(table);
  const info = virtualTable(table);
  if (produce === undefined || info === undefined) throw SqlError.of('ER_NO_SUCH_TABLE', `information_schema.${table}`);
  const grants = await source.grants();
  const rows = await produce(source, visibilityOf(grants), grants);
  const width = info.columns.length;
  const bad = rows.find((r) => r.length !== width);
  if (bad !== undefined) throw new Error(`information_schema.${table}: row of ${bad.length} values for ${width} columns`);
  return rows;
}

/** INSERT / UPDATE / DELETE on an information_schema table: 1044, as in MySQL. */
export function rejectInfoSchemaWrite(stmt: Statement, currentDb: string | null, user: string, host: string): void {
  if (stmt.kind !== 'insert' && stmt.kind !== 'update' && stmt.kind !== 'delete') return;
  const db = stmt.table.db ?? currentDb;
  if (db !== null && isInformationSchema(db)) throw SqlError.of('ER_DBACCESS_DENIED_ERROR', user, host, INFORMATION_SCHEMA);
}
