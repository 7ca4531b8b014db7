/**
 * Manual benchmark (not run by vitest): `node --import tsx test/kv/bench.ts [N] [reads]`.
 * Prints sequential vs concurrent commit throughput (group commit effect), Txn point-get latency
 * and raw KV read-path costs (snapshot+get+release, get, batchGet, 100-row scans).
 * With `reads` it only loads 2N keys in a few commits and runs the read benchmarks.
 */
import { rmSync } from 'node:fs';
import { openStore } from '../../src/kv/index.js';
import { createTxnStore } from '../../src/txn/index.js';
import { utf8Encode } from '../../src/util/index.js';
import { tempDir } from './backends.js';

const N = Number(process.argv[2] ?? 10_000);
const dir = tempDir('shale-bench-');
const kv = await openStore(dir);
const txns = createTxnStore(kv);
const key = (i: number): Uint8Array => utf8Encode(`bench-${String(i).padStart(8, '0')}`);
const value = new Uint8Array(100).fill(42);

async function one(i: number): Promise<void> {
  const snap = await kv.snapshot();
  try {
    await kv.commit({ startTs: snap.startTs, mutations: [{ op: 'put', key: key(i), value }], checkKeys: [] });
  } finally {
    snap.release();
  }
}

const readsOnly = process.argv[3] === 'reads';
let t0 = performance.now();
let ms = 0;
if (readsOnly) {
  for (let i = 0; i < 3 * N; i += 1000) {
    const snap = await kv.snapshot();
    const mutations = Array.from({ length: Math.min(1000, 3 * N - i) }, (_, j) => ({ op: 'put' as const, key: key(i + j), value }));
    await kv.commit({ startTs: snap.startTs, mutations, checkKeys: [] });
    snap.release();
  }
} else {
for (let i = 0; i < N; i++) await one(i);
ms = performance.now() - t0;
console.log(`sequential: ${N} commits in ${ms.toFixed(0)} ms = ${((ms * 1000) / N).toFixed(0)} µs/commit, ${((N / ms) * 1000).toFixed(0)} commits/s`);

t0 = performance.now();
await Promise.all(Array.from({ length: N }, (_, i) => one(N + i)));
ms = performance.now() - t0;
console.log(`concurrent: ${N} commits in ${ms.toFixed(0)} ms = ${((N / ms) * 1000).toFixed(0)} commits/s`);

t0 = performance.now();
await Promise.all(Array.from({ length: N }, (_, i) => txns.update(async (txn) => txn.put(key(2 * N + i), value))));
ms = performance.now() - t0;
console.log(`concurrent via TxnStore.update: ${N} commits in ${ms.toFixed(0)} ms = ${((N / ms) * 1000).toFixed(0)} commits/s`);
}

const GETS = 200_000;
const keys = Array.from({ length: 1000 }, (_, i) => key(Math.floor((i * 7919) % (2 * N))));
const txn = await txns.begin();
for (let i = 0; i < 10_000; i++) await txn.get(keys[i % keys.length] as Uint8Array); // warm-up
t0 = performance.now();
for (let i = 0; i < GETS; i++) await txn.get(keys[i % keys.length] as Uint8Array);
ms = performance.now() - t0;
console.log(`Txn.get (empty buffer, awaited): ${((ms * 1e6) / GETS / 1000).toFixed(2)} µs/get`);
txn.put(utf8Encode('x'), value);
t0 = performance.now();
for (let i = 0; i < GETS; i++) await txn.get(keys[i % keys.length] as Uint8Array);
ms = performance.now() - t0;
console.log(`Txn.get (1 buffered write, awaited): ${((ms * 1e6) / GETS / 1000).toFixed(2)} µs/get`);
txn.rollback();

const BEGINS = 50_000;
t0 = performance.now();
for (let i = 0; i < BEGINS; i++) {
  const t = await txns.begin();
  await t.get(keys[i % keys.length] as Uint8Array);
  await t.commit();
}
ms = performance.now() - t0;
console.log(`begin + get + read-only commit: ${((ms * 1000) / BEGINS).toFixed(2)} µs`);

/** Runs `body` `n` times after a warm-up and prints µs per iteration. */
async function timeIt(label: string, n: number, body: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < Math.min(n, 20_000); i++) await body(i);
  const start = performance.now();
  for (let i = 0; i < n; i++) await body(i);
  console.log(`${label}: ${(((performance.now() - start) * 1000) / n).toFixed(2)} µs`);
}

await timeIt('kv snapshot + get + release', 200_000, async (i) => {
  const s = await kv.snapshot();
  await s.get(keys[i % keys.length] as Uint8Array);
  s.release();
});
const open = await kv.snapshot();
await timeIt('kv get (open snapshot)', 500_000, async (i) => {
  await open.get(keys[i % keys.length] as Uint8Array);
});
const batch = keys.slice(0, 10);
await timeIt('kv batchGet of 10', 100_000, async () => {
  await open.batchGet(batch);
});
const end = utf8Encode('bench-~');
await timeIt('kv scan of 100 (forward)', 50_000, async (i) => {
  await open.scan({ start: keys[i % keys.length] as Uint8Array, end }, { limit: 100 });
});
await timeIt('kv scan of 100 (reverse)', 50_000, async (i) => {
  await open.scan({ start: key(0), end: keys[i % keys.length] as Uint8Array }, { limit: 100, reverse: true });
});
open.release();

await kv.close();
rmSync(dir, { recursive: true, force: true });
