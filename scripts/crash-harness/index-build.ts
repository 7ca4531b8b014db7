/**
 * The CREATE INDEX part of the harness: a table `big` (id, a = id % 100, b) large enough that
 * the index backfill takes a while, `CREATE INDEX k_big ON big (a, b)` sent during a cycle and
 * the server killed part-way through it. While the server is down the harness reads the index's
 * state straight from the store ('absent', 'writeOnly' = killed mid-backfill, 'public'); after
 * the restart the index must be invisible (absent / half-built) or complete and usable, and
 * CREATE INDEX run again must succeed (it resumes a half-built index). Then it is dropped so the
 * next DDL cycle starts over.
 */
import type mysql from 'mysql2/promise';
import { Catalog } from '../../src/catalog/index.js';
import { openStore } from '../../src/kv/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { connect, HARNESS_DB } from './workload.js';

export const BIG_INDEX = 'k_big';
const CREATE = `CREATE INDEX ${BIG_INDEX} ON big (a, b)`;
const A_VALUES = 100;
const PROBE_A = 7;

export type IndexState = 'absent' | 'writeOnly' | 'public';

export type DdlOutcome =
  | { readonly kind: 'ok'; readonly ms: number }
  | { readonly kind: 'lost' }
  | { readonly kind: 'error'; readonly message: string };

export async function createBigTable(c: mysql.Connection, rows: number): Promise<void> {
  await c.query('CREATE TABLE big (id INT PRIMARY KEY, a INT NOT NULL, b VARCHAR(40) NOT NULL)');
  for (let i = 0; i < rows; i += 2000) {
    const values: string[] = [];
    for (let id = i; id < Math.min(rows, i + 2000); id++) values.push(`(${id}, ${id % A_VALUES}, 'b-${id}-${'x'.repeat(16)}')`);
    await c.query(`INSERT INTO big VALUES ${values.join(', ')}`);
  }
}

/** Sends CREATE INDEX on its own connection; resolves when it answers or the connection dies. */
export async function createBigIndex(port: number): Promise<DdlOutcome> {
  const c = await connect(port).catch(() => undefined);
  if (c === undefined) return { kind: 'lost' };
  c.on('error', () => undefined);
  const started = performance.now();
  try {
    await c.query(CREATE);
    return { kind: 'ok', ms: performance.now() - started };
  } catch (err) {
    if ((err as { fatal?: boolean }).fatal === true) return { kind: 'lost' };
    return { kind: 'error', message: (err as Error).message };
  } finally {
    c.destroy();
  }
}

/** The index's state as stored (run while no server has the store open). */
export async function probeIndexState(storeUrl: string): Promise<IndexState> {
  const kv = await openStore(storeUrl);
  try {
    const schema = await (await Catalog.open(createTxnStore(kv))).latestSchema();
    const index = schema.table(HARNESS_DB, 'big')?.indexes.find((ix) => ix.name === BIG_INDEX);
    return index === undefined ? 'absent' : index.state;
  } finally {
    await kv.close();
  }
}

/** After the restart: visibility matches the stored state; CREATE INDEX (again) works; the index is complete and used. */
export async function verifyBigIndex(c: mysql.Connection, state: IndexState, outcome: DdlOutcome, rows: number): Promise<string[]> {
  const out: string[] = [];
  if (outcome.kind === 'ok' && state !== 'public') out.push(`CREATE INDEX was acknowledged but the index is ${state} after the restart`);
  const visible = await indexVisible(c);
  if (visible !== (state === 'public')) out.push(`index ${BIG_INDEX} stored as ${state} but ${visible ? '' : 'not '}listed by SHOW INDEX`);
  if (!visible) {
    try {
      await c.query(CREATE);
    } catch (err) {
      out.push(`CREATE INDEX after the restart (index was ${state}) failed: ${(err as Error).message}`);
      return out;
    }
  }
  try {
    await c.query('ADMIN CHECK TABLE big');
  } catch (err) {
    out.push(`ADMIN CHECK TABLE big: ${(err as Error).message}`);
  }
  const [plan] = await c.query(`EXPLAIN SELECT COUNT(*) FROM big WHERE a = ${PROBE_A}`);
  if (!JSON.stringify(plan).includes(BIG_INDEX)) out.push(`the plan of a query on big.a does not use ${BIG_INDEX}: ${JSON.stringify(plan)}`);
  const [counted] = await c.query(`SELECT COUNT(*) AS n FROM big WHERE a = ${PROBE_A}`);
  const n = Number((counted as Array<{ n: string | number }>)[0]?.n);
  const want = Math.floor(rows / A_VALUES) + (rows % A_VALUES > PROBE_A ? 1 : 0);
  if (n !== want) out.push(`SELECT COUNT(*) FROM big WHERE a = ${PROBE_A} through ${BIG_INDEX} = ${n}, want ${want}`);
  await c.query(`DROP INDEX ${BIG_INDEX} ON big`);
  return out;
}

async function indexVisible(c: mysql.Connection): Promise<boolean> {
  const [rows] = await c.query('SHOW INDEX FROM big');
  return (rows as Array<{ Key_name: string }>).some((r) => r.Key_name === BIG_INDEX);
}
