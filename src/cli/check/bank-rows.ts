/**
 * The bank checker's value types and the validation of what the server returns (untrusted
 * `unknown` rows from mysql2) into them. Money is bigint so totals stay exact.
 */

/** A transfer as the client issued it (and as a row of the transfers table). */
export interface Transfer {
  readonly id: number;
  readonly src: number;
  readonly dst: number;
  readonly amount: bigint;
}

export interface AccountRow {
  readonly id: number;
  readonly balance: bigint;
}

/** A whole number from a driver value: a number, a decimal string (BIGINT as text) or a bigint. */
export function toBigInt(v: unknown): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return Number.isSafeInteger(v) ? BigInt(v) : undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  return undefined;
}

/** A whole number that fits a double exactly (ids). */
export function toSafeInt(v: unknown): number | undefined {
  const b = toBigInt(v);
  if (b === undefined) return undefined;
  const n = Number(b);
  return Number.isSafeInteger(n) ? n : undefined;
}

function rowsOf(result: unknown, what: string): Array<Record<string, unknown>> {
  if (!Array.isArray(result)) throw new Error(`${what}: expected a result set, got ${typeof result}`);
  return result.map((row: unknown, i) => {
    if (typeof row !== 'object' || row === null) throw new Error(`${what}: row ${i} is not an object`);
    return row as Record<string, unknown>;
  });
}

function intField(row: Record<string, unknown>, name: string, what: string): number {
  const v = toSafeInt(row[name]);
  if (v === undefined) throw new Error(`${what}: column ${name} is not a whole number: ${JSON.stringify(String(row[name]))}`);
  return v;
}

function moneyField(row: Record<string, unknown>, name: string, what: string): bigint {
  const v = toBigInt(row[name]);
  if (v === undefined) throw new Error(`${what}: column ${name} is not a whole number: ${JSON.stringify(String(row[name]))}`);
  return v;
}

/** Validates `SELECT id, balance ...` rows. */
export function parseAccountRows(result: unknown): AccountRow[] {
  const what = 'accounts';
  return rowsOf(result, what).map((r) => ({ id: intField(r, 'id', what), balance: moneyField(r, 'balance', what) }));
}

/** Validates `SELECT id, src, dst, amount ...` rows. */
export function parseTransferRows(result: unknown): Transfer[] {
  const what = 'transfers';
  return rowsOf(result, what).map((r) => ({
    id: intField(r, 'id', what),
    src: intField(r, 'src', what),
    dst: intField(r, 'dst', what),
    amount: moneyField(r, 'amount', what),
  }));
}

/** The affected-row count of an OK result, or undefined if the result is not one. */
export function affectedRows(result: unknown): number | undefined {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return undefined;
  const n = (result as Record<string, unknown>)['affectedRows'];
  return typeof n === 'number' ? n : undefined;
}
