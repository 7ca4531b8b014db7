/**
 * The parse of a large literal-rows INSERT as COM_QUERY hands it over, both ways the server can
 * take it: the whole text decoded to one string and scanned (parseBulkInsert), or read from the
 * packet's bytes in windows (parseBulkInsertBytes, ARCHITECTURE.md "What bounds bulk load").
 * Twenty statements shaped like sysbench's prepare (2,700 rows of k, c, pad, ~524 KB) are parsed
 * `--parses` times per way and round, alternating; each line gives wall ms and process CPU ms
 * (user, which includes V8's GC helper threads, and system) per statement.
 *
 *   npx tsx sysbench/bulk-parse.ts [--rounds 5] [--parses 100]
 */
import { parseArgs } from 'node:util';
import { parseBulkInsertBytes } from '../src/sql/parse/bulk-insert-bytes.js';
import { parseBulkInsert } from '../src/sql/parse/bulk-insert.js';
import { decodeSurrogateEscape } from '../src/util/index.js';
import { positiveInt } from './lib/drive.js';
import { runIfMain } from './lib/script.js';

const STATEMENTS = 20;
const ROWS = 2700;

/** sysbench's `c`: 10 groups of 11 digits joined by '-'. */
function randomC(): string {
  return Array.from({ length: 10 }, () => String(Math.floor(Math.random() * 1e11)).padStart(11, '0')).join('-');
}

/** A COM_QUERY payload: the command byte, then the statement's text. */
function statement(): Buffer {
  const rows = Array.from({ length: ROWS }, () => `(${Math.floor(Math.random() * 100_000)}, '${randomC()}', '${randomC().slice(0, 59)}')`);
  return Buffer.from(`\x03INSERT INTO sbtest1(k, c, pad) VALUES${rows.join(',')}`);
}

const WAYS = {
  string: (p: Buffer) => parseBulkInsert(decodeSurrogateEscape(p, 1)),
  bytes: (p: Buffer) => parseBulkInsertBytes(p, 1),
};

export async function main(argv: readonly string[]): Promise<void> {
  const { values } = parseArgs({ args: [...argv], options: { rounds: { type: 'string' }, parses: { type: 'string' } } });
  const rounds = positiveInt('rounds', values.rounds, 5);
  const parses = positiveInt('parses', values.parses, 100);
  const payloads = Array.from({ length: STATEMENTS }, statement);
  process.stdout.write(`${STATEMENTS} statements of ${ROWS} rows, ${payloads[0]?.length ?? 0} bytes each\nround  way     wall ms  cpu ms (user + system)\n`);
  for (let r = 1; r <= rounds; r++) {
    for (const [name, parse] of Object.entries(WAYS)) {
      const cpu = process.cpuUsage();
      const start = performance.now();
      for (let k = 0; k < parses; k++) {
        const got = parse(payloads[k % STATEMENTS] as Buffer);
        if (got?.rows.length !== ROWS) throw new Error(`${name}: the statement did not parse`);
      }
      const wall = (performance.now() - start) / parses;
      const used = process.cpuUsage(cpu);
      const ms = (us: number): string => (us / parses / 1000).toFixed(2);
      process.stdout.write(`${String(r).padStart(5)}  ${name.padEnd(6)}  ${wall.toFixed(2).padStart(7)}  ${ms(used.user + used.system)} (${ms(used.user)} + ${ms(used.system)})\n`);
    }
  }
}

runIfMain(import.meta.url, 'bulk-parse', main);
