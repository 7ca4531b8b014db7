/** ALTER TABLE (several comma-separated operations) and RENAME TABLE, token-level. */
import type { AlterOp, ColumnPosition, RenameTableStmt, Statement } from './ast.js';
import type { Cursor } from './cursor.js';
import {
  checkClause, columnDef, type Constraints, defaultValue, foreignKey, indexName, keyColumns, skipIndexOptions, tableOptions,
} from './ddl-create-table.js';
import { notSupported } from './parse-error.js';

/** `ALTER [ONLINE] [IGNORE] TABLE t op [, op] ...`. */
export function parseAlterTable(c: Cursor): Statement {
  c.expectWord('ALTER');
  c.acceptWord('ONLINE');
  c.acceptWord('IGNORE');
  c.expectWord('TABLE');
  const table = c.tableName();
  const ops: AlterOp[] = [];
  while (!c.atEnd()) {
    const cons: Constraints = { foreignKeys: [], checks: [] };
    alterOp(c, ops, cons);
    for (const fk of cons.foreignKeys) ops.push({ op: 'addForeignKey', fk });
    for (const check of cons.checks) ops.push({ op: 'addCheck', check });
    if (!c.atEnd()) c.expectOp(',');
  }
  return { kind: 'alterTable', table, ops };
}

function alterOp(c: Cursor, ops: AlterOp[], cons: Constraints): void {
  const w = c.peek()?.upper;
  switch (c.peek()?.type === 'word' ? w : undefined) {
    case 'ADD':
      c.next();
      return addOp(c, ops, cons);
    case 'DROP':
      c.next();
      ops.push(dropOp(c));
      return;
    case 'MODIFY': {
      c.next();
      c.acceptWord('COLUMN');
      const column = columnDef(c, cons);
      ops.push({ op: 'modifyColumn', from: column.name, column, ...position(c) });
      return;
    }
    case 'CHANGE': {
      c.next();
      c.acceptWord('COLUMN');
      const from = c.ident();
      const column = columnDef(c, cons);
      ops.push({ op: 'modifyColumn', from, column, ...position(c) });
      return;
    }
    case 'RENAME':
      c.next();
      ops.push(renameOp(c));
      return;
    case 'ALTER':
      c.next();
      ops.push(alterColumnOp(c));
      return;
    case 'ALGORITHM':
    case 'LOCK':
      c.next();
      c.acceptOp('=');
      c.next();
      return;
    case 'FORCE':
      c.next();
      return;
    case 'ENABLE':
    case 'DISABLE':
      c.next();
      c.expectWord('KEYS');
      return;
    case 'CONVERT':
      c.next();
      ops.push(convertCharset(c));
      return;
    case 'ORDER':
    case 'PARTITION':
    case 'DISCARD':
    case 'IMPORT':
    case 'REMOVE':
    case 'WITH':
    case 'WITHOUT':
    case 'UPGRADE':
      throw notSupported(`ALTER TABLE ... ${w ?? ''}`);
    default: {
      const options = tableOptions(c, true);
      if (Object.keys(options).length === 0) throw c.error();
      ops.push({ op: 'options', options });
    }
  }
}

function addOp(c: Cursor, ops: AlterOp[], cons: Constraints): void {
  let constraint: string | undefined;
  let named = false;
  if (c.acceptWord('CONSTRAINT')) {
    named = true;
    if (!c.isWord('PRIMARY', 'UNIQUE', 'FOREIGN', 'CHECK')) constraint = c.ident();
  }
  if (c.acceptWords('PRIMARY', 'KEY')) {
    if (c.acceptWord('USING')) c.expectWord('BTREE', 'HASH');
    ops.push({ op: 'addIndex', index: { name: 'PRIMARY', columns: keyColumns(c), primary: true, unique: true } });
  } else if (c.acceptWord('UNIQUE')) {
    c.acceptWord('KEY', 'INDEX');
    const name = indexName(c) ?? constraint;
    ops.push({ op: 'addIndex', index: { ...(name ? { name } : {}), columns: keyColumns(c), primary: false, unique: true } });
  } else if (c.acceptWords('FOREIGN', 'KEY')) {
    ops.push({ op: 'addForeignKey', fk: foreignKey(c, constraint, indexName(c)) });
  } else if (c.acceptWord('CHECK')) {
    ops.push({ op: 'addCheck', check: checkClause(c, constraint) });
  } else if (named) {
    throw c.error();
  } else if (c.acceptWord('KEY', 'INDEX')) {
    const name = indexName(c);
    ops.push({ op: 'addIndex', index: { ...(name ? { name } : {}), columns: keyColumns(c), primary: false, unique: false } });
  } else if (c.isWord('FULLTEXT', 'SPATIAL')) {
    throw notSupported(`${c.next().upper} index`);
  } else {
    addColumns(c, ops, cons);
    return;
  }
  skipIndexOptions(c);
}

function addColumns(c: Cursor, ops: AlterOp[], cons: Constraints): void {
  c.acceptWord('COLUMN');
  if (c.acceptOp('(')) {
    do ops.push({ op: 'addColumn', column: columnDef(c, cons) });
    while (c.acceptOp(','));
    c.expectOp(')');
    return;
  }
  const column = columnDef(c, cons);
  ops.push({ op: 'addColumn', column, ...position(c) });
}

function position(c: Cursor): { position?: ColumnPosition } {
  if (c.acceptWord('FIRST')) return { position: { first: true } };
  if (c.acceptWord('AFTER')) return { position: { after: c.ident() } };
  return {};
}

function dropOp(c: Cursor): AlterOp {
  if (c.acceptWords('PRIMARY', 'KEY')) return { op: 'dropPrimaryKey' };
  if (c.acceptWord('INDEX', 'KEY')) {
    const ifExists = c.acceptWords('IF', 'EXISTS');
    return { op: 'dropIndex', name: c.ident(), ifExists };
  }
  if (c.acceptWords('FOREIGN', 'KEY')) return { op: 'dropForeignKey', name: c.ident() };
  if (c.acceptWord('CHECK')) return { op: 'dropConstraint', name: c.ident(), kind: 'check' };
  if (c.acceptWord('CONSTRAINT')) return { op: 'dropConstraint', name: c.ident(), kind: 'any' };
  c.acceptWord('COLUMN');
  const ifExists = c.acceptWords('IF', 'EXISTS');
  const name = c.ident();
  c.acceptWord('RESTRICT', 'CASCADE');
  return { op: 'dropColumn', name, ifExists };
}

function renameOp(c: Cursor): AlterOp {
  if (c.acceptWord('COLUMN')) {
    const from = c.ident();
    c.expectWord('TO');
    return { op: 'renameColumn', from, to: c.ident() };
  }
  if (c.acceptWord('INDEX', 'KEY')) {
    const from = c.ident();
    c.expectWord('TO');
    return { op: 'renameIndex', from, to: c.ident() };
  }
  c.acceptWord('TO', 'AS');
  return { op: 'renameTable', to: c.tableName() };
}

function convertCharset(c: Cursor): AlterOp {
  c.expectWord('TO');
  if (!c.acceptWords('CHARACTER', 'SET')) c.expectWord('CHARSET');
  const charset = c.name().toLowerCase();
  const collation = c.acceptWord('COLLATE') === undefined ? undefined : c.name().toLowerCase();
  return { op: 'convertCharset', charset, ...(collation !== undefined ? { collation } : {}) };
}

function alterColumnOp(c: Cursor): AlterOp {
  if (c.acceptWord('CHECK', 'CONSTRAINT')) {
    const name = c.ident();
    const enforced = !c.acceptWord('NOT');
    c.expectWord('ENFORCED');
    return { op: 'enforceCheck', name, enforced };
  }
  if (c.isWord('INDEX')) throw notSupported('ALTER INDEX ... VISIBLE/INVISIBLE');
  c.acceptWord('COLUMN');
  const name = c.ident();
  if (c.acceptWords('DROP', 'DEFAULT')) return { op: 'setDefault', name };
  if (c.acceptWords('SET', 'DEFAULT')) return { op: 'setDefault', name, default: defaultValue(c) };
  if (c.acceptWord('SET')) throw notSupported('ALTER COLUMN ... SET VISIBLE/INVISIBLE');
  throw c.error();
}

/** `RENAME TABLE a TO b [, c TO d] ...`. */
export function parseRenameTable(c: Cursor): RenameTableStmt {
  c.expectWord('RENAME');
  c.expectWord('TABLE', 'TABLES');
  const pairs: Array<RenameTableStmt['pairs'][number]> = [];
  do {
    const from = c.tableName();
    c.expectWord('TO');
    pairs.push({ from, to: c.tableName() });
  } while (c.acceptOp(','));
  c.expectEnd();
  return { kind: 'renameTable', pairs };
}
