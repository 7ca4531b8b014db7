/**
 * The bank client's outcome classification against a scripted fake connection: which failures
 * mean "not applied" (ERR packets, acknowledged ROLLBACK) and which leave the outcome unknown
 * (connection errors, at COMMIT or before), and the client loop's reconnects.
 */
import { describe, expect, it } from 'vitest';
import { attemptTransfer, randomTransfer, runClient } from '../../src/cli/check/bank-client.js';
import type { SqlConnection } from '../../src/cli/check/bank-connect.js';
import { connectWithRetry } from '../../src/cli/check/bank-connect.js';
import { Ledger } from '../../src/cli/check/bank-ledger.js';
import { ID_STRIDE } from '../../src/cli/check/bank-options.js';
import { seededRandom } from '../../src/cli/check/bank-random.js';
import type { Transfer } from '../../src/cli/check/bank-rows.js';

/** An ERR packet as mysql2 reports it. */
function serverError(errno: number): Error {
  return Object.assign(new Error(`server error ${errno}`), { errno, sqlState: '40001', code: 'ER_LOCK_DEADLOCK' });
}

/** A lost connection as mysql2 reports it. */
function connectionLost(): Error {
  return Object.assign(new Error('Connection lost: The server closed the connection.'), {
    code: 'PROTOCOL_CONNECTION_LOST',
    fatal: true,
  });
}

type Step = (sql: string) => unknown;

/** A fake connection: statements whose text starts with a key are answered by that step. */
class FakeConnection implements SqlConnection {
  readonly log: string[] = [];
  closed = false;
  constructor(
    private readonly steps: Record<string, Step>,
    private readonly balance = 1000,
  ) {}

  async query(sql: string, values?: readonly unknown[]): Promise<unknown> {
    this.log.push(sql.split(' ')[0]!);
    for (const [prefix, step] of Object.entries(this.steps)) if (sql.startsWith(prefix)) return step(sql);
    if (sql.startsWith('SELECT')) return (values ?? []).map((id) => ({ id, balance: String(this.balance) }));
    if (sql.startsWith('UPDATE') || sql.startsWith('INSERT')) return { affectedRows: 1 };
    return { affectedRows: 0 };
  }

  close(): void {
    this.closed = true;
  }
}

const throwing = (err: Error): Step => () => {
  throw err;
};

const T: Transfer = { id: 7, src: 1, dst: 2, amount: 50n };
const noAnomaly = (m: string): void => {
  throw new Error(`unexpected anomaly: ${m}`);
};

describe('attemptTransfer', () => {
  it('is acknowledged when COMMIT returns OK', async () => {
    const c = new FakeConnection({});
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'acknowledged' });
    expect(c.log).toEqual(['BEGIN', 'SELECT', 'UPDATE', 'UPDATE', 'INSERT', 'COMMIT']);
  });

  it('is rejected (and rolled back) when a statement gets an ERR packet', async () => {
    const c = new FakeConnection({ 'UPDATE bank_accounts SET balance = balance +': throwing(serverError(1213)) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'rejected', code: '1213', usable: true });
    expect(c.log).toEqual(['BEGIN', 'SELECT', 'UPDATE', 'UPDATE', 'ROLLBACK']);
  });

  it('is rejected when COMMIT itself returns an ERR packet', async () => {
    const c = new FakeConnection({ COMMIT: throwing(serverError(1213)) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'rejected', code: '1213', usable: true });
  });

  it('stays rejected but drops the connection when the ROLLBACK after an ERR fails', async () => {
    const c = new FakeConnection({ INSERT: throwing(serverError(1062)), ROLLBACK: throwing(connectionLost()) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'rejected', code: '1062', usable: false });
  });

  it('is unknown when COMMIT fails with 1180 (outcome unknown to the server too)', async () => {
    const c = new FakeConnection({ COMMIT: throwing(serverError(1180)) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'unknown', code: '1180', commitSent: true });
  });

  it('is unknown when the connection is lost during COMMIT', async () => {
    const c = new FakeConnection({ COMMIT: throwing(connectionLost()) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'unknown', code: 'PROTOCOL_CONNECTION_LOST', commitSent: true });
  });

  it('is unknown (COMMIT not sent) when the connection is lost earlier', async () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET', errno: -104, fatal: true });
    const c = new FakeConnection({ INSERT: throwing(reset) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'unknown', code: 'ECONNRESET', commitSent: false });
    expect(c.log).not.toContain('ROLLBACK');
  });

  it('is unknown when a fatal error carries a server error number (ERR then close)', async () => {
    const fatalServer = Object.assign(serverError(1053), { fatal: true });
    const c = new FakeConnection({ COMMIT: throwing(fatalServer) });
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'unknown', code: '1053', commitSent: true });
  });

  it('skips (rolls back) when the source cannot pay', async () => {
    const c = new FakeConnection({}, 49);
    expect(await attemptTransfer(c, T, noAnomaly)).toEqual({ kind: 'skipped', reason: 'insufficient' });
    expect(c.log).toEqual(['BEGIN', 'SELECT', 'ROLLBACK']);
  });

  it('reports an anomaly when an UPDATE matches no row, and rolls back', async () => {
    const anomalies: string[] = [];
    const c = new FakeConnection({ 'UPDATE bank_accounts SET balance = balance -': () => ({ affectedRows: 0 }) });
    expect(await attemptTransfer(c, T, (m) => anomalies.push(m))).toEqual({ kind: 'skipped', reason: 'anomaly' });
    expect(anomalies).toEqual(['transfer 7: UPDATE of account 1: expected 1 affected row, got 0']);
    expect(c.log.at(-1)).toBe('ROLLBACK');
  });

  it('reports an anomaly when SELECT ... FOR UPDATE misses an account', async () => {
    const anomalies: string[] = [];
    const c = new FakeConnection({ SELECT: () => [{ id: 1, balance: '1000' }] });
    expect(await attemptTransfer(c, T, (m) => anomalies.push(m))).toEqual({ kind: 'skipped', reason: 'anomaly' });
    expect(anomalies[0]).toContain('returned ids [1]');
  });
});

describe('randomTransfer', () => {
  it('picks distinct accounts in range and an amount of 1..initial/5', () => {
    const rng = seededRandom(1);
    for (let i = 0; i < 2000; i++) {
      const t = randomTransfer(rng, i, 3, 1000n);
      expect(t.src).not.toBe(t.dst);
      expect([t.src, t.dst].every((a) => a >= 0 && a < 3)).toBe(true);
      expect(t.amount >= 1n && t.amount <= 200n).toBe(true);
    }
    expect(randomTransfer(seededRandom(5), 1, 10, 1n).amount).toBe(1n);
  });

  it('is reproducible from the seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    for (let i = 0; i < 10; i++) expect(randomTransfer(a, i, 100, 1000n)).toEqual(randomTransfer(b, i, 100, 1000n));
  });
});

describe('runClient', () => {
  it('reconnects after connection errors, keeps going, and uses unique ids', async () => {
    const ledger = new Ledger();
    const connect = async (): Promise<SqlConnection> => {
      // Every connection dies at its third COMMIT.
      let commits = 0;
      return new FakeConnection({
        COMMIT: () => {
          if (++commits === 3) throw connectionLost();
          return { affectedRows: 0 };
        },
      });
    };
    let failures = 0;
    await runClient({
      index: 3,
      accounts: 10,
      initial: 1_000_000n,
      rng: seededRandom(9),
      ledger,
      // Long enough for > 10 transfers even on a loaded machine (the fake connection is instant).
      deadline: Date.now() + 1500,
      connect: () =>
        connectWithRetry(
          { target: { host: 'x', port: 1, user: 'root', password: '', database: 'd' }, timeoutMs: 10 },
          {
            deadline: Date.now() + 1000,
            onError: (code) => ledger.connectErrors.add(code),
            // Every third attempt to connect is refused.
            connect: async () => {
              if (++failures % 3 === 0) throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
              return connect();
            },
            sleep: async () => undefined,
          },
        ),
    });
    expect(ledger.acknowledged.size).toBeGreaterThan(10);
    expect(ledger.unknown.size).toBeGreaterThan(0);
    // Each lost connection is replaced, except possibly one lost just before the deadline.
    expect(ledger.reconnects).toBeGreaterThanOrEqual(ledger.unknown.size - 1);
    expect(ledger.reconnects).toBeLessThanOrEqual(ledger.unknown.size);
    expect(ledger.connectErrors.toJSON()['ECONNREFUSED']).toBeGreaterThan(0);
    const ids = [...ledger.acknowledged.keys(), ...ledger.unknown.keys()];
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => id > 3 * ID_STRIDE && id < 4 * ID_STRIDE)).toBe(true);
  });
});
