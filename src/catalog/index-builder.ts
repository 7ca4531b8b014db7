/**
 * IndexSpec -> IndexInfo: column resolution (1072, 1060, 1170), naming (PRIMARY; unnamed
 * indexes take their first column's name, then `_2`, `_3` ... on clashes), duplicate names
 * (1061) and MySQL's key order (PRIMARY, UNIQUE without nullable parts, other UNIQUE, the rest).
 */
import { SqlError } from '../errors/index.js';
import { isLobType } from './column-builder.js';
import type { IndexSpec } from './specs.js';
import type { ColumnInfo, IndexColumnInfo, IndexInfo, IndexState } from './types.js';

export const PRIMARY_NAME = 'PRIMARY';

/** Resolves the columns of one index against the table's columns. */
export function resolveIndexColumns(columns: readonly ColumnInfo[], spec: IndexSpec): IndexColumnInfo[] {
  const seen = new Set<number>();
  return spec.columns.map((c) => {
    const lower = c.name.toLowerCase();
    const col = columns.find((x) => x.name.toLowerCase() === lower);
    if (col === undefined) throw SqlError.of('ER_KEY_COLUMN_DOES_NOT_EXITS', c.name);
    if (seen.has(col.offset)) throw SqlError.of('ER_DUP_FIELDNAME', col.name);
    seen.add(col.offset);
    if (col.type.kind === 'json') throw SqlError.of('ER_JSON_USED_AS_KEY', col.name);
    if (isLobType(col.type) && c.length === undefined) throw SqlError.of('ER_BLOB_KEY_WITHOUT_LENGTH', col.name);
    return c.length === undefined ? { offset: col.offset, name: col.name } : { offset: col.offset, name: col.name, length: c.length };
  });
}

/**
 * The name of a new index given the names already taken (lower-cased). Throws 1061 for an
 * explicit name that is taken.
 */
export function chooseIndexName(spec: IndexSpec, firstColumn: string, taken: ReadonlySet<string>): string {
  if (spec.primary) return PRIMARY_NAME;
  if (spec.name !== undefined && spec.name !== '') {
    if (taken.has(spec.name.toLowerCase()) || spec.name.toLowerCase() === 'primary') {
      throw SqlError.of('ER_DUP_KEYNAME', spec.name);
    }
    return spec.name;
  }
  const isFree = (n: string): boolean => !taken.has(n.toLowerCase()) && n.toLowerCase() !== 'primary';
  if (isFree(firstColumn)) return firstColumn;
  for (let i = 2; ; i++) {
    const candidate = `${firstColumn}_${i}`;
    if (isFree(candidate)) return candidate;
  }
}

/** Builds the index list of a new table, in MySQL key order, with ids 1..n. */
export function buildIndexes(columns: readonly ColumnInfo[], specs: readonly IndexSpec[]): IndexInfo[] {
  if (specs.filter((s) => s.primary).length > 1) throw SqlError.of('ER_MULTIPLE_PRI_KEY');
  const taken = new Set<string>();
  const built: Array<Omit<IndexInfo, 'id'>> = [];
  for (const spec of specs) {
    const cols = resolveIndexColumns(columns, spec);
    const first = cols[0];
    if (first === undefined) throw SqlError.of('ER_KEY_COLUMN_DOES_NOT_EXITS', '');
    const name = chooseIndexName(spec, first.name, taken);
    taken.add(name.toLowerCase());
    built.push(makeIndex(0, name, cols, spec, 'public'));
  }
  return sortIndexes(built, columns).map((ix, i) => ({ ...ix, id: i + 1 }));
}

/** Stable sort into MySQL key order (how SHOW INDEX / SHOW CREATE TABLE list keys). */
export function sortIndexes<T extends Omit<IndexInfo, 'id'>>(indexes: readonly T[], columns: readonly ColumnInfo[]): T[] {
  return indexes
    .map((ix, pos) => ({ ix, pos, rank: keyRank(ix, columns) }))
    .sort((a, b) => a.rank - b.rank || a.pos - b.pos)
    .map(({ ix }) => ix);
}

export function makeIndex(id: number, name: string, columns: readonly IndexColumnInfo[], spec: IndexSpec, state: IndexState): IndexInfo {
  return { id, name, columns, unique: spec.unique || spec.primary, primary: spec.primary, state };
}

function keyRank(ix: Omit<IndexInfo, 'id'>, columns: readonly ColumnInfo[]): number {
  if (ix.primary) return 0;
  if (!ix.unique) return 3;
  const nullable = ix.columns.some((c) => columns[c.offset]?.notNull !== true);
  return nullable ? 2 : 1;
}

/** MySQL: the AUTO_INCREMENT column must be the first column of some index (1075). */
export function checkAutoIncrementKey(columns: readonly ColumnInfo[], indexes: readonly IndexInfo[]): number {
  const autos = columns.filter((c) => c.autoIncrement);
  const auto = autos[0];
  if (auto === undefined) return -1;
  if (autos.length > 1) throw SqlError.of('ER_WRONG_AUTO_KEY');
  if (!indexes.some((ix) => ix.columns[0]?.offset === auto.offset)) throw SqlError.of('ER_WRONG_AUTO_KEY');
  return auto.offset;
}
