/**
 * SHOW CREATE TABLE / SHOW CREATE DATABASE in MySQL 8's format. The text is valid ShaleDB
 * input (tools copy it), e.g.
 *
 *   CREATE TABLE `sbtest1` (
 *     `id` int NOT NULL AUTO_INCREMENT,
 *     `k` int NOT NULL DEFAULT '0',
 *     PRIMARY KEY (`id`),
 *     KEY `k_1` (`k`)
 *   ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_bin
 */
import type { CheckInfo, ColumnInfo, DatabaseInfo, ForeignKeyInfo, IndexInfo, TableInfo } from '../../catalog/index.js';
import { formatColumnType, isStringType } from '../../types/index.js';
import { charsetOfCollation } from './charset.js';
import { nowText, orderedIndexes } from './column-text.js';

export function quoteIdent(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

export function quoteString(s: string): string {
  return "'" + s.replace(/\\/g, '\\\\').replace(/'/g, "''") + "'";
}

/** `autoIncrement`: the next AUTO_INCREMENT value, printed as MySQL does when above 1. */
export function createTableText(table: TableInfo, autoIncrement?: bigint | null): string {
  const lines = [
    ...table.columns.map((c) => '  ' + columnText(c, table)),
    ...orderedIndexes(table).map((i) => '  ' + indexText(i)),
    ...table.foreignKeys.map((fk) => '  ' + foreignKeyText(fk, table)),
    ...(table.checks ?? []).map((c) => '  ' + checkText(c)),
  ];
  const auto = autoIncrement !== undefined && autoIncrement !== null && autoIncrement > 1n ? ` AUTO_INCREMENT=${autoIncrement}` : '';
  let options = `ENGINE=InnoDB${auto} DEFAULT CHARSET=${table.charset} COLLATE=${table.collation}`;
  if (table.comment !== '') options += ` COMMENT=${quoteString(table.comment)}`;
  return `CREATE TABLE ${quoteIdent(table.name)} (\n${lines.join(',\n')}\n) ${options}`;
}

function columnText(col: ColumnInfo, table: TableInfo): string {
  let s = `${quoteIdent(col.name)} ${formatColumnType(col.type)}`;
  if (isStringType(col.type) && col.type.collation !== table.collation) {
    const cs = charsetOfCollation(col.type.collation);
    s += cs === table.charset ? ` COLLATE ${col.type.collation}` : ` CHARACTER SET ${cs} COLLATE ${col.type.collation}`;
  }
  if (col.notNull) s += ' NOT NULL';
  else if (col.type.kind === 'timestamp') s += ' NULL';
  s += defaultClause(col);
  if (col.autoIncrement) s += ' AUTO_INCREMENT';
  if (col.onUpdateNow) s += ` ON UPDATE ${nowText(col.type.scale)}`;
  if (col.comment !== '') s += ` COMMENT ${quoteString(col.comment)}`;
  return s;
}

function defaultClause(col: ColumnInfo): string {
  const d = col.default;
  switch (d.kind) {
    case 'none':
      return col.notNull || col.autoIncrement || isLob(col) ? '' : ' DEFAULT NULL';
    case 'null':
      return ' DEFAULT NULL';
    case 'literal':
      return ` DEFAULT ${quoteString(d.text)}`;
    case 'now':
      return ` DEFAULT ${nowText(d.fsp)}`;
  }
}

/** TEXT / BLOB columns print no DEFAULT NULL (JSON does, as in MySQL 8). */
function isLob(col: ColumnInfo): boolean {
  return col.type.kind === 'text' || col.type.kind === 'blob';
}

function indexText(idx: IndexInfo): string {
  const cols = idx.columns.map((c) => quoteIdent(c.name) + (c.length === undefined ? '' : `(${c.length})`)).join(',');
  if (idx.primary) return `PRIMARY KEY (${cols})`;
  return `${idx.unique ? 'UNIQUE KEY' : 'KEY'} ${quoteIdent(idx.name)} (${cols})`;
}

function foreignKeyText(fk: ForeignKeyInfo, table: TableInfo): string {
  const list = (names: readonly string[]): string => names.map(quoteIdent).join(', ');
  const ref = fk.refDb !== '' && fk.refDb !== table.dbName ? `${quoteIdent(fk.refDb)}.${quoteIdent(fk.refTable)}` : quoteIdent(fk.refTable);
  let s = `CONSTRAINT ${quoteIdent(fk.name)} FOREIGN KEY (${list(fk.columns)}) REFERENCES ${ref} (${list(fk.refColumns)})`;
  if (isAction(fk.onDelete)) s += ` ON DELETE ${fk.onDelete.toUpperCase()}`;
  if (isAction(fk.onUpdate)) s += ` ON UPDATE ${fk.onUpdate.toUpperCase()}`;
  return s;
}

function checkText(c: CheckInfo): string {
  return `CONSTRAINT ${quoteIdent(c.name)} CHECK (${c.expr})${c.enforced ? '' : ' /*!80016 NOT ENFORCED */'}`;
}

/** RESTRICT / NO ACTION are the default and MySQL omits them. */
function isAction(rule: string): boolean {
  const r = rule.toUpperCase();
  return r !== '' && r !== 'RESTRICT' && r !== 'NO ACTION';
}

export function createDatabaseText(db: DatabaseInfo): string {
  return `CREATE DATABASE ${quoteIdent(db.name)} /*!40100 DEFAULT CHARACTER SET ${db.charset} COLLATE ${db.collation} */`;
}
