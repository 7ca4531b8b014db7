/** Parsing and validation of `shale check bank` flags, and usage errors through commander. */
import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { registerCheckCommands } from '../../src/cli/check/index.js';
import { bankOptions, describeTarget, intInRange, parseBankUrl, seconds } from '../../src/cli/check/bank-options.js';

describe('parseBankUrl', () => {
  it('reads user, password, host, port and database', () => {
    expect(parseBankUrl('mysql://app:s%40cret@db.example:3307/bank_1')).toEqual({
      host: 'db.example',
      port: 3307,
      user: 'app',
      password: 's@cret',
      database: 'bank_1',
    });
  });

  it('defaults to root, an empty password, port 4000 and database bankcheck', () => {
    expect(parseBankUrl('mysql://127.0.0.1')).toEqual({ host: '127.0.0.1', port: 4000, user: 'root', password: '', database: 'bankcheck' });
    expect(parseBankUrl('mysql://root:@127.0.0.1:4000/bankcheck')).toMatchObject({ user: 'root', password: '' });
  });

  it('accepts an IPv6 literal', () => {
    expect(parseBankUrl('mysql://[::1]:4000/x')).toMatchObject({ host: '::1', port: 4000 });
    expect(describeTarget(parseBankUrl('mysql://u:pw@[::1]:4000/x'))).toBe('mysql://u@[::1]:4000/x');
  });

  it('rejects other schemes, odd database names, query strings and garbage', () => {
    for (const bad of ['http://h/db', 'mysql://h/a-b', 'mysql://h/a/b', 'mysql://h/db?ssl=1', 'not a url', 'mysql://h:99999/db']) {
      expect(() => parseBankUrl(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('never shows the password in the description', () => {
    expect(describeTarget(parseBankUrl('mysql://root:hunter2@h:1/d'))).toBe('mysql://root@h:1/d');
  });
});

describe('number flags', () => {
  it('accepts whole numbers in range only', () => {
    const p = intInRange(1, 10);
    expect(p('1')).toBe(1);
    expect(p(' 10 ')).toBe(10);
    for (const bad of ['0', '11', '1.5', 'x', '', '1e3', '-1']) expect(() => p(bad), bad).toThrow(InvalidArgumentError);
  });

  it('accepts seconds with fractions', () => {
    const p = seconds(0.1, 100);
    expect(p('2.5')).toBe(2.5);
    for (const bad of ['0', '101', '-1', 'soon']) expect(() => p(bad), bad).toThrow(InvalidArgumentError);
  });

  it('builds options with a random seed unless one is given', () => {
    const flags = { url: parseBankUrl('mysql://h/d'), accounts: 5, clients: 2, duration: 1, initial: 7, timeout: 3 };
    expect(bankOptions(flags, () => 99)).toMatchObject({ seed: 99, initial: 7n, durationS: 1, timeoutS: 3, json: false });
    expect(bankOptions({ ...flags, seed: 0, json: true }, () => 99)).toMatchObject({ seed: 0, json: true });
  });
});

describe('shale check bank (commander)', () => {
  function program(): { program: Command; errors: string[] } {
    const errors: string[] = [];
    const p = new Command('shale').exitOverride();
    registerCheckCommands(p);
    for (const c of p.commands) {
      c.configureOutput({ writeErr: (s) => errors.push(s), writeOut: () => undefined });
      for (const sub of c.commands) {
        sub.configureOutput({ writeErr: (s) => errors.push(s), writeOut: () => undefined });
        // Throw instead of exiting so the test can see the usage error.
        sub.exitOverride((err) => {
          throw err;
        });
      }
    }
    return { program: p, errors };
  }

  it('reports a missing --url and a bad --clients as usage errors', async () => {
    const a = program();
    await expect(a.program.parseAsync(['node', 'shale', 'check', 'bank'])).rejects.toThrow(/required option '--url <url>'/);
    const b = program();
    await expect(
      b.program.parseAsync(['node', 'shale', 'check', 'bank', '--url', 'mysql://h/d', '--clients', '0']),
    ).rejects.toThrow(/--clients <n>.*must be a whole number 1-1000/);
  });
});
