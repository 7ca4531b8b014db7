/**
 * Applies ALTER TABLE actions, in statement order, to a Draft: the index, constraint and table
 * option actions here, the column actions in alter-columns.ts.
 */
import { SqlError } from '../errors/index.js';
import { addColumn, addDraftIndex, dropColumn, modifyColumn, renameColumn, setDefault } from './alter-columns.js';
import { type Draft, draftColumn } from './alter-draft.js';
import type { AlterAction } from './alter-specs.js';
import { foreignKeyIndex, hasLeadingIndex, nameChecks, nameForeignKeys } from './constraints.js';
import { checkTableName, defaultCollation } from './table-builder.js';
import { assertNever } from '../util/index.js';
import { isStringType } from '../types/index.js';

export function applyAction(d: Draft, a: AlterAction): void {
  if (a.op !== 'addIndex') d.onlyAddsIndexes = false;
  switch (a.op) {
    case 'addColumn':
      return addColumn(d, a.spec, a.position);
    case 'dropColumn':
      return dropColumn(d, a.name, a.ifExists);
    case 'modifyColumn':
      return modifyColumn(d, a.from, a.spec, a.position);
    case 'renameColumn':
      return renameColumn(d, a.from, a.to);
    case 'setDefault':
      return setDefault(d, a.name, a.default);
    case 'addIndex':
      return addDraftIndex(d, { name: a.spec.name ?? '', columns: a.spec.columns.map((c) => ({ ...c })), unique: a.spec.unique || a.spec.primary, primary: a.spec.primary });
    case 'dropIndex':
      return dropIndex(d, a.name, a.ifExists);
    case 'dropPrimaryKey':
      throw SqlError.of('ER_NOT_SUPPORTED_YET', 'DROP PRIMARY KEY');
    case 'renameIndex':
      return renameIndex(d, a.from, a.to);
    case 'renameTable':
      checkTableName(a.name);
      d.dbName = a.db;
      d.name = a.name;
      return;
    case 'addForeignKey':
      return addForeignKey(d, a);
    case 'dropForeignKey':
      return dropForeignKey(d, a.name);
    case 'addCheck': {
      const [check] = nameChecks(d.name, d.checks, [a.check]);
      if (check === undefined) return;
      for (const c of check.columns) if (draftColumn(d, c) === undefined) throw SqlError.of('ER_CHECK_CONSTRAINT_REFERS_UNKNOWN_COLUMN', check.name, c);
      d.checks.push(check);
      d.addedChecks.push(check);
      return;
    }
    case 'dropConstraint':
      return dropConstraint(d, a.name, a.kind);
    case 'enforceCheck':
      return enforceCheck(d, a.name, a.enforced);
    case 'autoIncrement':
      d.autoIncrement = a.value;
      return;
    case 'comment':
      d.comment = a.text;
      return;
    case 'charset':
      if (a.charset !== undefined) d.charset = a.charset;
      d.collation = a.collation ?? (a.charset !== undefined ? defaultCollation(a.charset) : d.collation);
      return;
    case 'convertCharset': {
      d.charset = a.charset;
      d.collation = a.collation ?? defaultCollation(a.charset);
      const collation = d.collation;
      d.columns = d.columns.map((col) => {
        if (!isStringType(col.type) || col.type.collation === collation) return col;
        d.converted.add(col.id);
        return { ...col, type: { ...col.type, collation } };
      });
      return;
    }
    default:
      return assertNever(a, 'ALTER TABLE action');
  }
}

function dropIndex(d: Draft, name: string, ifExists: boolean): void {
  const lower = name.toLowerCase();
  const ix = d.indexes.find((x) => x.name.toLowerCase() === lower);
  if (ix === undefined) {
    if (ifExists) return;
    throw SqlError.of('ER_CANT_DROP_FIELD_OR_KEY', name);
  }
  if (ix.primary) throw SqlError.of('ER_NOT_SUPPORTED_YET', 'DROP PRIMARY KEY');
  const rest = d.indexes.filter((x) => x !== ix);
  for (const fk of d.foreignKeys) {
    if (hasLeadingIndex([ix], fk.columns) && !hasLeadingIndex(rest, fk.columns)) throw SqlError.of('ER_DROP_INDEX_FK', ix.name);
  }
  d.indexes = rest;
  if (ix.id !== 0) d.droppedIndexIds.push(ix.id);
}

function renameIndex(d: Draft, from: string, to: string): void {
  const ix = d.indexes.find((x) => x.name.toLowerCase() === from.toLowerCase());
  if (ix === undefined || ix.primary) throw SqlError.of('ER_KEY_DOES_NOT_EXITS', from, d.old.name);
  if (to.toLowerCase() === 'primary' || d.indexes.some((x) => x !== ix && x.name.toLowerCase() === to.toLowerCase())) throw SqlError.of('ER_DUP_KEYNAME', to);
  ix.name = to;
}

function addForeignKey(d: Draft, a: Extract<AlterAction, { op: 'addForeignKey' }>): void {
  const [fk] = nameForeignKeys(d.name, d.foreignKeys, [a.fk], d.dbName);
  if (fk === undefined) return;
  const columns = fk.columns.map((c) => {
    const col = draftColumn(d, c);
    if (col === undefined) throw SqlError.of('ER_KEY_COLUMN_DOES_NOT_EXITS', c);
    return col.name;
  });
  const named = { ...fk, columns };
  if (!hasLeadingIndex(d.indexes, columns)) {
    const spec = foreignKeyIndex(a.fk);
    addDraftIndex(d, { name: spec.name ?? '', columns: spec.columns.map((c) => ({ name: c.name })), unique: false, primary: false });
  }
  d.foreignKeys.push(named);
  d.addedForeignKeys.push(named);
}

function dropForeignKey(d: Draft, name: string): void {
  const fk = d.foreignKeys.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (fk === undefined) throw SqlError.of('ER_CANT_DROP_FIELD_OR_KEY', name);
  d.foreignKeys = d.foreignKeys.filter((f) => f !== fk);
}

function dropConstraint(d: Draft, name: string, kind: 'check' | 'any'): void {
  const lower = name.toLowerCase();
  const check = d.checks.find((c) => c.name.toLowerCase() === lower);
  if (check !== undefined) {
    d.checks = d.checks.filter((c) => c !== check);
    return;
  }
  if (kind === 'check') throw SqlError.of('ER_CHECK_CONSTRAINT_NOT_FOUND', name);
  if (d.foreignKeys.some((f) => f.name.toLowerCase() === lower)) return dropForeignKey(d, name);
  const ix = d.indexes.find((x) => x.unique && x.name.toLowerCase() === lower);
  if (ix !== undefined) return dropIndex(d, ix.name, false);
  throw SqlError.of('ER_CONSTRAINT_NOT_FOUND', name);
}

function enforceCheck(d: Draft, name: string, enforced: boolean): void {
  const check = d.checks.find((c) => c.name.toLowerCase() === name.toLowerCase());
  if (check === undefined) throw SqlError.of('ER_CHECK_CONSTRAINT_NOT_FOUND', name);
  const next = { ...check, enforced };
  d.checks = d.checks.map((c) => (c === check ? next : c));
  if (enforced && !check.enforced) d.addedChecks.push(next);
}
