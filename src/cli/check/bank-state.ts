/**
 * Reads the final state of the bank tables in one transaction (one snapshot), paging through the
 * transfers by primary key so a long run does not need one huge result set.
 */
import type { SqlConnection } from './bank-connect.js';
import { parseAccountRows, parseTransferRows, type AccountRow, type Transfer } from './bank-rows.js';
import { TABLES } from './bank-schema.js';

export interface BankState {
  readonly accountRows: AccountRow[];
  readonly transferRows: Transfer[];
}

const PAGE = 10_000;

export async function readBankState(conn: SqlConnection): Promise<BankState> {
  await conn.query('START TRANSACTION');
  try {
    const accountRows = parseAccountRows(await conn.query(`SELECT id, balance FROM ${TABLES.accounts} ORDER BY id`));
    const transferRows: Transfer[] = [];
    let after = -1;
    for (;;) {
      const page = parseTransferRows(
        await conn.query(`SELECT id, src, dst, amount FROM ${TABLES.transfers} WHERE id > ? ORDER BY id LIMIT ${PAGE}`, [after]),
      );
      for (const row of page) {
        if (row.id < after) throw new Error(`transfers page is not in primary-key order: ${row.id} after ${after}`);
        after = row.id;
        transferRows.push(row);
      }
      if (page.length < PAGE) break;
    }
    return { accountRows, transferRows };
  } finally {
    await conn.query('ROLLBACK').catch(() => undefined);
  }
}
