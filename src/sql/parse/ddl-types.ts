/** Column type syntax (CREATE TABLE) -> ColumnType, by a token-level parser. */
import { makeType, type ColumnType, type LobSize, type TypeKind } from '../../types/index.js';
import type { Cursor } from './cursor.js';
import { notSupported } from './parse-error.js';

export interface ParsedType {
  readonly type: ColumnType;
  /** SERIAL: NOT NULL AUTO_INCREMENT UNIQUE implied. */
  readonly serial: boolean;
}

const INT_KINDS: Readonly<Record<string, TypeKind>> = {
  TINYINT: 'tinyint', INT1: 'tinyint', SMALLINT: 'smallint', INT2: 'smallint', MEDIUMINT: 'mediumint', MIDDLEINT: 'mediumint',
  INT3: 'mediumint', INT: 'int', INTEGER: 'int', INT4: 'int', BIGINT: 'bigint', INT8: 'bigint',
};
const LOBS: Readonly<Record<string, { kind: TypeKind; lob: LobSize }>> = {
  TINYTEXT: { kind: 'text', lob: 'tiny' }, TEXT: { kind: 'text', lob: 'normal' }, MEDIUMTEXT: { kind: 'text', lob: 'medium' },
  LONGTEXT: { kind: 'text', lob: 'long' }, TINYBLOB: { kind: 'blob', lob: 'tiny' }, BLOB: { kind: 'blob', lob: 'normal' },
  MEDIUMBLOB: { kind: 'blob', lob: 'medium' }, LONGBLOB: { kind: 'blob', lob: 'long' },
};

function optLength(c: Cursor): number | undefined {
  if (!c.acceptOp('(')) return undefined;
  const n = c.int();
  c.expectOp(')');
  return n;
}

function optPrecision(c: Cursor): { m?: number; d?: number } {
  if (!c.acceptOp('(')) return {};
  const m = c.int();
  const d = c.acceptOp(',') ? c.int() : undefined;
  c.expectOp(')');
  return d === undefined ? { m } : { m, d };
}

/** SIGNED / UNSIGNED / ZEROFILL in any order; returns unsigned. */
function signFlags(c: Cursor): boolean {
  let unsigned = false;
  for (;;) {
    const w = c.acceptWord('SIGNED', 'UNSIGNED', 'ZEROFILL');
    if (w === undefined) return unsigned;
    if (w !== 'SIGNED') unsigned = true;
  }
}

export function parseColumnType(c: Cursor): ParsedType {
  const at = c.pos;
  const word = c.expectWord(
    ...Object.keys(INT_KINDS), ...Object.keys(LOBS), 'BOOL', 'BOOLEAN', 'SERIAL', 'DECIMAL', 'NUMERIC', 'DEC', 'FIXED', 'FLOAT',
    'DOUBLE', 'REAL', 'CHAR', 'CHARACTER', 'NCHAR', 'NATIONAL', 'VARCHAR', 'NVARCHAR', 'VARCHARACTER', 'BINARY', 'VARBINARY',
    'DATE', 'DATETIME', 'TIMESTAMP', 'TIME', 'YEAR', 'JSON', 'LONG', 'ENUM', 'SET', 'BIT', 'GEOMETRY', 'POINT',
  );
  const plain = (type: ColumnType): ParsedType => ({ type, serial: false });
  const intKind = INT_KINDS[word];
  if (intKind !== undefined) {
    const width = optLength(c);
    return plain(makeType(intKind, { length: width ?? -1, unsigned: signFlags(c) }));
  }
  const lob = LOBS[word];
  if (lob !== undefined) {
    optLength(c);
    return plain(makeType(lob.kind, { lob: lob.lob }));
  }
  switch (word) {
    case 'BOOL':
    case 'BOOLEAN':
      return plain(makeType('tinyint', { length: 1 }));
    case 'SERIAL':
      return { type: makeType('bigint', { unsigned: true }), serial: true };
    case 'DECIMAL':
    case 'NUMERIC':
    case 'DEC':
    case 'FIXED': {
      const { m, d } = optPrecision(c);
      return plain(makeType('decimal', { length: m ?? 10, scale: d ?? 0, unsigned: signFlags(c) }));
    }
    case 'FLOAT': {
      const { m, d } = optPrecision(c);
      const kind = d === undefined && m !== undefined && m > 24 ? 'double' : 'float';
      return plain(makeType(kind, { unsigned: signFlags(c) }));
    }
    case 'DOUBLE':
    case 'REAL':
      if (word === 'DOUBLE') c.acceptWord('PRECISION');
      optPrecision(c);
      return plain(makeType('double', { unsigned: signFlags(c) }));
    default:
      return plain(stringOrTemporal(c, word, at));
  }
}

function stringOrTemporal(c: Cursor, word: string, at: number): ColumnType {
  switch (word) {
    case 'NATIONAL':
      return stringOrTemporal(c, c.expectWord('CHAR', 'CHARACTER', 'VARCHAR'), at);
    case 'CHAR':
    case 'CHARACTER':
    case 'NCHAR':
      if (c.acceptWord('VARYING')) return makeType('varchar', { length: requiredLength(c) });
      return makeType('char', { length: optLength(c) ?? 1 });
    case 'VARCHAR':
    case 'NVARCHAR':
    case 'VARCHARACTER':
      return makeType('varchar', { length: requiredLength(c) });
    case 'BINARY':
      return makeType('binary', { length: optLength(c) ?? 1 });
    case 'VARBINARY':
      return makeType('varbinary', { length: requiredLength(c) });
    case 'LONG':
      c.acceptWord('VARCHAR', 'VARBINARY');
      return makeType('text', { lob: 'medium' });
    case 'DATE':
    case 'JSON':
      return makeType(word === 'DATE' ? 'date' : 'json');
    case 'YEAR':
      optLength(c);
      return makeType('year');
    case 'BIT': {
      const width = optLength(c) ?? 1;
      if (width < 1 || width > 64) throw c.error();
      return makeType('bit', { length: width });
    }
    case 'ENUM':
    case 'SET':
      return enumOrSet(c, word === 'ENUM' ? 'enum' : 'set');
    case 'DATETIME':
    case 'TIMESTAMP':
    case 'TIME': {
      const fsp = optLength(c) ?? 0;
      if (fsp > 6) throw c.error();
      return makeType(word === 'DATETIME' ? 'datetime' : word === 'TIMESTAMP' ? 'timestamp' : 'time', { scale: fsp });
    }
    default:
      c.pos = at;
      throw notSupported(`column type ${word}`);
  }
}

function requiredLength(c: Cursor): number {
  const n = optLength(c);
  if (n === undefined) throw c.error();
  return n;
}

/**
 * `ENUM('a','b',...)` / `SET(...)`: members keep their case, lose trailing spaces (as MySQL);
 * `length` is the longest value in characters (SET: all members joined by commas).
 */
function enumOrSet(c: Cursor, kind: 'enum' | 'set'): ColumnType {
  c.expectOp('(');
  const members: string[] = [];
  do members.push(c.string().replace(/ +$/, ''));
  while (c.acceptOp(','));
  c.expectOp(')');
  const lengths = members.map((m) => Array.from(m).length);
  const length = kind === 'enum' ? Math.max(0, ...lengths) : lengths.reduce((a, b) => a + b, 0) + members.length - 1;
  return makeType(kind, { members, length });
}
