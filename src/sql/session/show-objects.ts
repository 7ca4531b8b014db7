/**
 * SHOW TRIGGERS / PROCEDURE STATUS / FUNCTION STATUS / EVENTS / OPEN TABLES / MASTER STATUS /
 * REPLICA STATUS with MySQL 8.0's columns. ShaleDB has no triggers, stored routines, events,
 * table cache or binary log, so they list nothing (as a MySQL server without them does).
 */
import type { ShowTarget } from '../parse/index.js';
import { intColumn, textColumn } from './result-columns.js';
import type { ShowRows } from './show-server.js';

const text = (names: readonly string[]): ShowRows['columns'] => names.map((n) => textColumn(n));

const CLIENT = ['character_set_client', 'collation_connection', 'Database Collation'];

const COLUMNS: Partial<Record<ShowTarget, ShowRows['columns']>> = {
  triggers: text(['Trigger', 'Event', 'Table', 'Statement', 'Timing', 'Created', 'sql_mode', 'Definer', ...CLIENT]),
  procedureStatus: text(['Db', 'Name', 'Type', 'Definer', 'Modified', 'Created', 'Security_type', 'Comment', ...CLIENT]),
  functionStatus: text(['Db', 'Name', 'Type', 'Definer', 'Modified', 'Created', 'Security_type', 'Comment', ...CLIENT]),
  events: [
    ...text(['Db', 'Name', 'Definer', 'Time zone', 'Type', 'Execute at', 'Interval value', 'Interval field', 'Starts', 'Ends', 'Status']),
    intColumn('Originator', true),
    ...text(CLIENT),
  ],
  openTables: [...text(['Database', 'Table']), intColumn('In_use'), intColumn('Name_locked')],
  masterStatus: [
    textColumn('File'), intColumn('Position', true), textColumn('Binlog_Do_DB'), textColumn('Binlog_Ignore_DB'),
    textColumn('Executed_Gtid_Set'),
  ],
  replicaStatus: text(['Replica_IO_State', 'Source_Host', 'Source_User']),
};

/** The empty result of one of the targets above. */
export function showNoObjects(target: ShowTarget): ShowRows {
  return { columns: COLUMNS[target] ?? [], rows: [] };
}

/** The column SHOW ... LIKE matches: Table for TRIGGERS and OPEN TABLES, Name for routines and events. */
export function likeColumnOf(target: ShowTarget): number {
  switch (target) {
    case 'triggers':
    case 'procedureStatus':
    case 'functionStatus':
    case 'events':
    case 'openTables':
      return target === 'triggers' ? 2 : 1;
    default:
      return 0;
  }
}
