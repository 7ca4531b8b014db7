/** SHOW statements about the server rather than the schema. */
import type { Value } from '../../types/index.js';
import { CHARSETS, COLLATIONS } from './charset.js';
import type { Diagnostic } from './diagnostics.js';
import { intColumn, textColumn } from './result-columns.js';
import type { ResultColumn } from './types.js';

type Row = Value[];
export interface ShowRows {
  readonly columns: readonly ResultColumn[];
  readonly rows: Row[];
}

/** One connection as SHOW PROCESSLIST shows it. */
export interface ProcessInfo {
  readonly id: number;
  readonly user: string;
  readonly host: string;
  readonly db: string | null;
  readonly command: string;
  readonly time: number;
  readonly state: string;
  readonly info: string | null;
}

export function nameValueRows(entries: ReadonlyArray<readonly [string, string]>): ShowRows {
  const sorted = [...entries].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return {
    columns: [textColumn('Variable_name'), textColumn('Value', 1024)],
    rows: sorted.map(([n, v]) => [n, v]),
  };
}

export function showDiagnostics(items: readonly Diagnostic[]): ShowRows {
  return {
    columns: [textColumn('Level', 7), intColumn('Code', true), textColumn('Message', 512)],
    rows: items.map((d) => [d.level, BigInt(d.code), d.message]),
  };
}

export function showEngines(): ShowRows {
  return {
    columns: ['Engine', 'Support', 'Comment', 'Transactions', 'XA', 'Savepoints'].map((n) => textColumn(n)),
    rows: [['InnoDB', 'DEFAULT', 'ShaleDB transactional storage (snapshot isolation over KV)', 'YES', 'NO', 'YES']],
  };
}

export function showCollation(): ShowRows {
  return {
    columns: [
      textColumn('Collation'), textColumn('Charset'), intColumn('Id', true), textColumn('Default', 3),
      textColumn('Compiled', 3), intColumn('Sortlen', true), textColumn('Pad_attribute', 9),
    ],
    rows: COLLATIONS.map((c) => [
      c.name, c.charset, BigInt(c.id), c.isDefault ? 'Yes' : '', 'Yes', collationSortLen(c.name), c.padSpace ? 'PAD SPACE' : 'NO PAD',
    ]),
  };
}

/** SORTLEN as MySQL reports it: 0 for the UCA 9.0.0 collations, 8 for the older UCA ones, else 1. */
export function collationSortLen(name: string): bigint {
  if (name.includes('_0900_')) return 0n;
  return name.includes('_unicode_') ? 8n : 1n;
}

export function showCharset(): ShowRows {
  return {
    columns: [textColumn('Charset'), textColumn('Description', 2048), textColumn('Default collation'), intColumn('Maxlen', true)],
    rows: CHARSETS.map((c) => [c.name, c.description, c.defaultCollation, BigInt(c.maxLen)]),
  };
}

export function showProcessList(list: readonly ProcessInfo[], full: boolean): ShowRows {
  return {
    columns: [
      intColumn('Id', true), textColumn('User', 32), textColumn('Host', 261), textColumn('db'),
      textColumn('Command', 16), intColumn('Time'), textColumn('State', 30), textColumn('Info', 65535),
    ],
    rows: list.map((p) => [
      BigInt(p.id), p.user, p.host, p.db, p.command, BigInt(p.time), p.state,
      p.info === null || full ? p.info : p.info.slice(0, 100),
    ]),
  };
}

export function showGrants(user: string): ShowRows {
  return {
    columns: [textColumn(`Grants for ${user}@%`, 1024)],
    rows: [[`GRANT ALL PRIVILEGES ON *.* TO \`${user}\`@\`%\` WITH GRANT OPTION`]],
  };
}

export function showPlugins(): ShowRows {
  const plugin = (name: string, type: string): Row => [name, 'ACTIVE', type, null, 'GPL'];
  return {
    columns: ['Name', 'Status', 'Type', 'Library', 'License'].map((n) => textColumn(n)),
    rows: [
      plugin('mysql_native_password', 'AUTHENTICATION'),
      plugin('caching_sha2_password', 'AUTHENTICATION'),
      plugin('InnoDB', 'STORAGE ENGINE'),
    ],
  };
}
