/**
 * What information_schema shows an account: as in MySQL, a database or table appears only
 * when the account holds some privilege on it (root and global privileges see everything).
 */
import type { Schema, TableInfo } from '../../catalog/index.js';
import { isInformationSchema, virtualTable, virtualTableNames } from '../plan/index.js';
import type { Grants } from './account-match.js';

/** Table-level privileges any one of which makes a table visible. */
const TABLE_PRIVILEGES = [
  'SELECT', 'INSERT', 'UPDATE', 'DELETE', 'CREATE', 'DROP', 'REFERENCES', 'INDEX', 'ALTER', 'CREATE VIEW', 'SHOW VIEW', 'TRIGGER',
];

export interface Visibility {
  seesDatabase(db: string): boolean;
  seesTable(db: string, table: string): boolean;
}

/** `grants` undefined: the built-in superuser. */
export function visibilityOf(grants: Grants | undefined): Visibility {
  if (grants === undefined || grants.superuser) return { seesDatabase: () => true, seesTable: () => true };
  return {
    seesDatabase: (db) => isInformationSchema(db) || grants.seesDatabase(db),
    seesTable: (db, table) => isInformationSchema(db) || TABLE_PRIVILEGES.some((p) => grants.hasOnTable(p, db, table)),
  };
}

/** Every table the account may see, stored ones first (by database, then name), then information_schema's. */
export function visibleTables(schema: Schema, vis: Visibility, withInfoSchema = true): TableInfo[] {
  const out: TableInfo[] = [];
  for (const db of schema.databases()) {
    for (const t of schema.tables(db.name)) if (vis.seesTable(db.name, t.name)) out.push(t);
  }
  if (!withInfoSchema) return out;
  for (const name of virtualTableNames()) {
    const t = virtualTable(name);
    if (t !== undefined) out.push(t);
  }
  return out;
}
