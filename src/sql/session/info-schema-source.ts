/** The InfoSchemaSource of one statement: its schema snapshot and transaction, the session's account and variables. */
import type { Schema, TableInfo } from '../../catalog/index.js';
import { estimateTable } from '../exec/index.js';
import type { Txn } from '../../txn/index.js';
import { ROOT, type Grants } from './account-match.js';
import type { EngineCore } from './engine-core.js';
import { visibilityOf, type Visibility } from './info-schema-access.js';
import type { InfoSchemaSource } from './info-schema-rows.js';
import type { StatsOf, TableStats } from './info-schema-tables.js';
import type { ProcessInfo } from './show-server.js';
import { displayVariable } from './system-variables.js';
import type { SessionVariables } from './variable-store.js';

export interface SourceParts {
  readonly engine: EngineCore;
  readonly user: string;
  readonly host: string;
  readonly variables: SessionVariables;
  processList(): Promise<ProcessInfo[]>;
}

/** Stats of a table read through `txn` (memoized for the statement). */
export function tableStatsReader(txn: Txn): StatsOf {
  const memo = new Map<number, Promise<TableStats>>();
  return (t: TableInfo) => {
    let p = memo.get(t.id);
    if (p === undefined) memo.set(t.id, (p = readStats(txn, t)));
    return p;
  };
}

async function readStats(txn: Txn, t: TableInfo): Promise<TableStats> {
  const est = await estimateTable(txn, t);
  const autoCol = t.autoIncrementOffset >= 0 ? t.columns[t.autoIncrementOffset] : undefined;
  if (autoCol === undefined) return { rows: est.rows, autoIncrement: null };
  const handleIsAuto = t.pkIsHandle && t.indexes.some((i) => i.primary && i.columns[0]?.offset === t.autoIncrementOffset);
  return { rows: est.rows, autoIncrement: handleIsAuto && est.maxHandle !== null ? est.maxHandle + 1n : est.rows + 1n };
}

/** What SHOW TABLES / SHOW TABLE STATUS list for this account (information_schema's rule). */
export async function requesterVisibility(who: { user: string; host: string; users: EngineCore['users'] }): Promise<Visibility> {
  return visibilityOf(who.user === ROOT.user ? undefined : await who.users.grantsFor(who.user, who.host));
}

export function infoSchemaSource(parts: SourceParts, schema: Schema, txn: Txn): InfoSchemaSource {
  return {
    schema,
    user: parts.user,
    processList: () => parts.processList(),
    grants: (): Promise<Grants | undefined> =>
      parts.user === ROOT.user ? Promise.resolve(undefined) : parts.engine.users.grantsFor(parts.user, parts.host),
    variables: (global) =>
      parts.variables.entries(global ? 'global' : 'session').map(({ def, value }) => [def.name, displayVariable(def, value)] as const),
    tableStats: tableStatsReader(txn),
  };
}
