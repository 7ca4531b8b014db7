/** Optimizer hints read from the statement text (MAX_EXECUTION_TIME). */
import { describe, expect, it } from 'vitest';
import { statementHints } from '../../../src/sql/parse/index.js';

describe('statementHints', () => {
  it('reads MAX_EXECUTION_TIME right after SELECT', () => {
    expect(statementHints('SELECT /*+ MAX_EXECUTION_TIME(1000) */ * FROM t')).toEqual({ keyword: 'SELECT', maxExecutionTime: 1000 });
    expect(statementHints('  select/*+ max_execution_time( 5 ) */ 1')).toEqual({ keyword: 'SELECT', maxExecutionTime: 5 });
    expect(statementHints('-- c\n/* note */ SELECT /*+ NO_INDEX(t) MAX_EXECUTION_TIME(7) */ 1')).toEqual({ keyword: 'SELECT', maxExecutionTime: 7 });
  });

  it('ignores hints elsewhere, other hints and plain comments', () => {
    expect(statementHints('SELECT 1 /*+ MAX_EXECUTION_TIME(10) */')).toEqual({ keyword: 'SELECT' });
    expect(statementHints('SELECT /* MAX_EXECUTION_TIME(10) */ 1')).toEqual({ keyword: 'SELECT' });
    expect(statementHints('SELECT /*+ BKA(t) */ 1')).toEqual({ keyword: 'SELECT' });
    expect(statementHints('/*+ MAX_EXECUTION_TIME(10) */ SELECT 1')).toEqual({ keyword: '' });
    expect(statementHints('SHOW TABLES')).toEqual({ keyword: 'SHOW' });
  });

  it('reports the keyword of other hintable statements (the session applies the limit to SELECT only)', () => {
    expect(statementHints('UPDATE /*+ MAX_EXECUTION_TIME(10) */ t SET a = 1')).toEqual({ keyword: 'UPDATE', maxExecutionTime: 10 });
  });
});
