/** Administrative statements (TiDB's ADMIN family). */
import type { TableName } from './ast.js';

/** `ADMIN CHECK TABLE t [, t2 ...]`: verify every row has its index entries and vice versa. */
export interface AdminCheckTable {
  readonly op: 'checkTable';
  readonly tables: readonly TableName[];
}

export type AdminStatement = AdminCheckTable;
