/**
 * The bank checker's tables: created fresh for every run in the target database (created if
 * missing), with every account loaded at the initial balance.
 */
import type { SqlConnection } from './bank-connect.js';

export const TABLES = { accounts: 'bank_accounts', transfers: 'bank_transfers' } as const;

const LOAD_BATCH = 500;

/** CREATE DATABASE IF NOT EXISTS + USE, drops and recreates both tables, loads the accounts. */
export async function setupBank(conn: SqlConnection, database: string, accounts: number, initial: bigint): Promise<void> {
  await conn.query(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
  await conn.query(`USE \`${database}\``);
  await conn.query(`DROP TABLE IF EXISTS ${TABLES.transfers}`);
  await conn.query(`DROP TABLE IF EXISTS ${TABLES.accounts}`);
  await conn.query(`CREATE TABLE ${TABLES.accounts} (id INT PRIMARY KEY, balance BIGINT NOT NULL)`);
  await conn.query(
    `CREATE TABLE ${TABLES.transfers} (id BIGINT PRIMARY KEY, src INT NOT NULL, dst INT NOT NULL, amount BIGINT NOT NULL)`,
  );
  for (let start = 0; start < accounts; start += LOAD_BATCH) {
    const end = Math.min(accounts, start + LOAD_BATCH);
    const values: string[] = [];
    for (let id = start; id < end; id++) values.push(`(${id}, ${initial.toString()})`);
    await conn.query(`INSERT INTO ${TABLES.accounts} (id, balance) VALUES ${values.join(', ')}`);
  }
}
