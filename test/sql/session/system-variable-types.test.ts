/**
 * `SELECT @@x` result metadata follows the variable's definition kind (system-variables.ts and
 * system-variables-extra.ts): int/bool -> BIGINT, double -> DOUBLE, everything else text; user
 * variables stay text. Also checks the values agree with the declared type.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/sql/session/index.js';
import { openTestEngine, type TestEngine } from './session-helpers.js';

describe('system variable result types', () => {
  let t: TestEngine;
  let s: Session;

  beforeAll(async () => {
    t = await openTestEngine();
    s = await t.open();
  });

  afterAll(async () => {
    await t.close();
  });

  async function kinds(sql: string): Promise<Array<[string, unknown]>> {
    const r = await s.query(sql);
    if (r.kind !== 'rows') throw new Error('expected rows');
    return r.columns.map((c, i) => [c.type.kind, r.rows[0]?.[i]]);
  }

  it('types integer and boolean variables as BIGINT, also ones defined outside the fixed list', async () => {
    const got = await kinds('SELECT @@innodb_page_size, @@global.back_log, @@autocommit, @@session.cte_max_recursion_depth, @@tx_read_only');
    expect(got.map(([k]) => k)).toEqual(['bigint', 'bigint', 'bigint', 'bigint', 'bigint']);
    for (const [, v] of got) expect(typeof v).toBe('bigint');
  });

  it('types double variables as DOUBLE and the rest as VARCHAR', async () => {
    const got = await kinds('SELECT @@long_query_time, @@version_comment, @@sql_mode, @@transaction_isolation, @@time_zone');
    expect(got.map(([k]) => k)).toEqual(['double', 'varchar', 'varchar', 'varchar', 'varchar']);
    expect(typeof got[0]?.[1]).toBe('number');
  });

  it('keeps user variables and undeclared computed names typed as before', async () => {
    const got = await kinds('SELECT @u, @@warning_count, @@last_insert_id, @@identity');
    expect(got.map(([k]) => k)).toEqual(['varchar', 'bigint', 'bigint', 'bigint']);
  });
});
