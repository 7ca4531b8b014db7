/**
 * ALTER TABLE column actions on a Draft: ADD / DROP / MODIFY / CHANGE / RENAME COLUMN and
 * ALTER COLUMN SET / DROP DEFAULT. A type change is metadata-only when every stored value
 * stays valid under the new type (wider integer, longer string in the same collation, ...);
 * otherwise the column is marked `converted` and the rows are rewritten.
 */
import { SqlError } from '../errors/index.js';
import type { ColumnType } from '../types/index.js';
import type { ColumnPlacement } from './alter-specs.js';
import { type Draft, draftColumn, type DraftIndex, unknownColumn } from './alter-draft.js';
import { buildColumn, checkColumnName, withTableCollation } from './column-builder.js';
import type { ColumnSpec } from './specs.js';
import type { ColumnDefault, ColumnInfo } from './types.js';

export function addColumn(d: Draft, spec: ColumnSpec, position: ColumnPlacement | undefined): void {
  checkColumnName(spec.name);
  if (draftColumn(d, spec.name) !== undefined) throw SqlError.of('ER_DUP_FIELDNAME', spec.name);
  const notNull = spec.notNull || spec.primaryKey;
  const col = buildColumn(withTableCollation(spec, d.collation), d.maxColumnId + 1, 0, notNull);
  d.maxColumnId = col.id;
  const constant = !col.autoIncrement && col.default.kind === 'literal' || col.default.kind === 'null' || (col.default.kind === 'none' && !notNull);
  const added: ColumnInfo = constant ? { ...col, originDefault: col.default } : col;
  if (!constant) d.computedOrigin.add(col.id);
  place(d, added, position ?? { last: true });
  inlineKeys(d, spec);
}

export function dropColumn(d: Draft, name: string, ifExists: boolean): void {
  const col = draftColumn(d, name);
  if (col === undefined) {
    if (ifExists) return;
    throw SqlError.of('ER_CANT_DROP_FIELD_OR_KEY', name);
  }
  d.onlyAddsIndexes = false;
  const lower = col.name.toLowerCase();
  const fk = d.foreignKeys.find((f) => f.columns.some((c) => c.toLowerCase() === lower));
  if (fk !== undefined) throw SqlError.of('ER_FK_COLUMN_CANNOT_DROP', col.name, fk.name);
  d.checks = d.checks.filter((c) => {
    if (!c.columns.includes(lower)) return true;
    if (c.columns.length > 1) throw SqlError.of('ER_DEPENDENT_BY_CHECK_CONSTRAINT', c.name, col.name);
    return false;
  });
  d.columns = d.columns.filter((c) => c !== col);
  d.indexes = d.indexes.flatMap((ix) => withoutColumn(d, ix, lower));
}

/** MySQL drops the column from each index; an index left without columns is dropped, a shortened one rebuilt. */
function withoutColumn(d: Draft, ix: DraftIndex, lower: string): DraftIndex[] {
  const columns = ix.columns.filter((c) => c.name.toLowerCase() !== lower);
  if (columns.length === ix.columns.length) return [ix];
  if (ix.id !== 0 && !ix.primary) d.droppedIndexIds.push(ix.id);
  if (ix.primary) d.primaryChanged = true;
  if (columns.length === 0) return [];
  return [{ ...ix, id: 0, columns }];
}

export function modifyColumn(d: Draft, from: string, spec: ColumnSpec, position: ColumnPlacement | undefined): void {
  const old = draftColumn(d, from);
  if (old === undefined) throw unknownColumn(d, from);
  checkColumnName(spec.name);
  const clash = draftColumn(d, spec.name);
  if (clash !== undefined && clash !== old) throw SqlError.of('ER_DUP_FIELDNAME', spec.name);
  d.onlyAddsIndexes = false;
  const inPk = d.indexes.some((ix) => ix.primary && ix.columns.some((c) => c.name.toLowerCase() === old.name.toLowerCase()));
  const notNull = spec.notNull || spec.primaryKey || inPk;
  const built = buildColumn(withTableCollation(spec, d.collation), old.id, 0, notNull);
  const converted = !sameStoredType(old.type, built.type);
  // A rewrite stores the column in every row, so the origin default is only kept without one.
  const col: ColumnInfo = old.originDefault !== undefined && !converted ? { ...built, originDefault: old.originDefault } : built;
  if (converted) d.converted.add(col.id);
  if (notNull && !old.notNull) d.tightened.add(col.id);
  if (old.name !== col.name) renameReferences(d, old.name, col.name);
  d.columns = d.columns.map((c) => (c === old ? col : c));
  if (position !== undefined) {
    d.columns = d.columns.filter((c) => c !== col);
    place(d, col, position);
  }
  inlineKeys(d, spec);
}

export function renameColumn(d: Draft, from: string, to: string): void {
  const old = draftColumn(d, from);
  if (old === undefined) throw unknownColumn(d, from);
  checkColumnName(to);
  const clash = draftColumn(d, to);
  if (clash !== undefined && clash !== old) throw SqlError.of('ER_DUP_FIELDNAME', to);
  d.onlyAddsIndexes = false;
  renameReferences(d, old.name, to);
  d.columns = d.columns.map((c) => (c === old ? { ...c, name: to } : c));
}

export function setDefault(d: Draft, name: string, def: ColumnDefault): void {
  const old = draftColumn(d, name);
  if (old === undefined) throw unknownColumn(d, name);
  d.onlyAddsIndexes = false;
  const spec: ColumnSpec = { ...old, default: def, primaryKey: false, unique: false };
  const col: ColumnInfo = { ...buildColumn(spec, old.id, 0, old.notNull), ...(old.originDefault ? { originDefault: old.originDefault } : {}) };
  d.columns = d.columns.map((c) => (c === old ? col : c));
}

/** Index parts, foreign key columns and CHECK constraints follow a renamed column (a CHECK using it is 3959). */
function renameReferences(d: Draft, from: string, to: string): void {
  const lower = from.toLowerCase();
  const check = d.checks.find((c) => c.columns.includes(lower));
  if (check !== undefined) throw SqlError.of('ER_DEPENDENT_BY_CHECK_CONSTRAINT', check.name, from);
  for (const ix of d.indexes) for (const c of ix.columns) if (c.name.toLowerCase() === lower) c.name = to;
  d.foreignKeys = d.foreignKeys.map((f) => ({ ...f, columns: f.columns.map((c) => (c.toLowerCase() === lower ? to : c)) }));
}

/** Inline PRIMARY KEY / UNIQUE of an added or modified column. */
function inlineKeys(d: Draft, spec: ColumnSpec): void {
  if (spec.primaryKey) addDraftIndex(d, { name: 'PRIMARY', columns: [{ name: spec.name }], unique: true, primary: true });
  if (spec.unique) addDraftIndex(d, { name: '', columns: [{ name: spec.name }], unique: true, primary: false });
}

/** Adds an index to the draft (name chosen as MySQL does; 1061 / 1068). */
export function addDraftIndex(d: Draft, ix: Omit<DraftIndex, 'id' | 'state'>): void {
  const taken = new Set(d.indexes.map((x) => x.name.toLowerCase()));
  if (ix.primary) {
    if (d.indexes.some((x) => x.primary)) throw SqlError.of('ER_MULTIPLE_PRI_KEY');
    d.primaryChanged = true;
    d.indexes.push({ ...ix, name: 'PRIMARY', id: 0, state: 'public' });
    return;
  }
  let name = ix.name;
  if (name !== '') {
    if (taken.has(name.toLowerCase()) || name.toLowerCase() === 'primary') throw SqlError.of('ER_DUP_KEYNAME', name);
  } else {
    const first = ix.columns[0]?.name ?? '';
    const actual = draftColumn(d, first)?.name ?? first;
    name = actual;
    for (let i = 2; taken.has(name.toLowerCase()) || name.toLowerCase() === 'primary'; i++) name = `${actual}_${i}`;
  }
  d.indexes.push({ ...ix, name, id: 0, state: 'public' });
}

function place(d: Draft, col: ColumnInfo, position: ColumnPlacement | { last: true }): void {
  if ('first' in position) {
    d.columns.unshift(col);
  } else if ('after' in position) {
    const after = draftColumn(d, position.after);
    if (after === undefined) throw unknownColumn(d, position.after);
    d.columns.splice(d.columns.indexOf(after) + 1, 0, col);
  } else {
    d.columns.push(col);
  }
}

const INT_RANK: Readonly<Record<string, number>> = { tinyint: 1, smallint: 2, mediumint: 3, int: 4, bigint: 5 };
const STRING_KINDS = new Set(['char', 'varchar', 'text']);

/** True if every value stored under `a` is stored identically (and valid) under `b`. */
export function sameStoredType(a: ColumnType, b: ColumnType): boolean {
  const ra = INT_RANK[a.kind];
  const rb = INT_RANK[b.kind];
  if (ra !== undefined && rb !== undefined) return a.unsigned === b.unsigned && rb >= ra;
  if (STRING_KINDS.has(a.kind) && STRING_KINDS.has(b.kind)) {
    return a.collation === b.collation && b.kind !== 'char' && (b.length < 0 || (a.length >= 0 && b.length >= a.length));
  }
  if (a.kind === 'varbinary' && (b.kind === 'varbinary' || b.kind === 'blob')) return b.length < 0 || (a.length >= 0 && b.length >= a.length);
  return a.kind === b.kind && a.unsigned === b.unsigned && a.length === b.length && a.scale === b.scale && a.lob === b.lob && a.collation === b.collation;
}
