/**
 * Dependency direction is a failing test (DESIGN.md §2): every import in src/ is checked against
 * the layer table below, and some packages may only be imported by one layer.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../src');

/** Layer of a file, by its path relative to src/. */
function layerOf(rel: string): string {
  if (rel === 'main.ts' || rel.startsWith('cli/')) return 'cli';
  if (rel.startsWith('sql/')) return `sql/${rel.split('/')[1]?.replace(/\.ts$/, '') ?? ''}`;
  // The backends' contract: kv.ts and its key runs (key-run.ts).
  if (rel === 'kv/key-run.ts') return 'kv/kv';
  if (rel === 'kv/kv.ts' || rel === 'kv/index.ts' || rel === 'kv/open.ts') return rel.replace(/\.ts$/, '');
  if (rel.startsWith('kv/')) return `kv/${rel.split('/')[1] ?? ''}`;
  return rel.split('/')[0] ?? rel;
}

const BOTTOM = ['types', 'errors', 'util'];
const ALLOWED: Record<string, readonly string[] | '*'> = {
  cli: '*',
  server: ['sql/session', ...BOTTOM],
  'sql/parse': BOTTOM,
  // expr evaluates the parser's Expr nodes, so it reads the AST types from sql/parse.
  'sql/expr': ['sql/parse', ...BOTTOM],
  'sql/plan': ['sql/parse', 'sql/expr', 'catalog', ...BOTTOM],
  'sql/exec': ['sql/parse', 'sql/plan', 'sql/expr', 'catalog', 'codec', 'txn', ...BOTTOM],
  'sql/session': ['sql/parse', 'sql/expr', 'sql/plan', 'sql/exec', 'catalog', 'txn', ...BOTTOM],
  catalog: ['codec', 'txn', ...BOTTOM],
  codec: BOTTOM,
  txn: ['kv/kv', 'errors', 'util'],
  'kv/kv': ['errors', 'util'],
  'kv/index': ['kv/kv', 'kv/open'],
  'kv/open': ['kv/kv', 'kv/embedded', 'kv/etcd', 'kv/tikv', 'errors', 'util'],
  'kv/embedded': ['kv/kv', 'errors', 'util'],
  'kv/etcd': ['kv/kv', 'errors', 'util'],
  'kv/tikv': ['kv/kv', 'errors', 'util'],
  types: ['errors', 'util'],
  errors: ['util'],
  util: [],
};

/** npm packages only one layer may import. */
const PACKAGE_OWNERS: Record<string, readonly string[]> = {
  'node-sql-parser': ['sql/parse'],
  lmdb: ['kv/embedded'],
  '@grpc/grpc-js': ['kv/etcd', 'kv/tikv'],
  '@grpc/proto-loader': ['kv/etcd', 'kv/tikv'],
  'prom-client': ['cli'],
};

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listTs(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(source: string): string[] {
  const re = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|(?:^|\n)\s*import\s*['"]([^'"]+)['"]/g;
  const out: string[] = [];
  for (const m of source.matchAll(re)) out.push((m[1] ?? m[2] ?? m[3]) as string);
  return out;
}

function violations(): string[] {
  const problems: string[] = [];
  for (const file of listTs(SRC)) {
    const rel = relative(SRC, file);
    const from = layerOf(rel);
    const allowed = ALLOWED[from];
    if (allowed === undefined) {
      problems.push(`${rel}: folder "${from}" is not in the layer table`);
      continue;
    }
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const target = relative(SRC, resolve(dirname(file), spec)).replace(/\.js$/, '.ts');
        const to = layerOf(target);
        if (to === from || allowed === '*') continue;
        if (!allowed.includes(to)) problems.push(`${rel}: ${from} may not import ${to} (${spec})`);
      } else {
        const pkg = spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : (spec.split('/')[0] as string);
        const owners = PACKAGE_OWNERS[pkg];
        if (owners !== undefined && !owners.includes(from)) problems.push(`${rel}: only ${owners.join(', ')} may import ${pkg}`);
      }
    }
  }
  return problems;
}

describe('import direction', () => {
  it('every import in src/ follows the layer table', () => {
    expect(violations()).toEqual([]);
  });

  it('detects a forbidden edge (self-check of the checker)', () => {
    expect(layerOf('server/connection.ts')).toBe('server');
    expect(layerOf('kv/embedded/store.ts')).toBe('kv/embedded');
    expect(layerOf('kv/key-run.ts')).toBe('kv/kv');
    expect(ALLOWED['server']).not.toContain('kv/kv');
    expect(importsOf("import { x } from '../kv/kv.js';\nexport * from './a.js';")).toEqual(['../kv/kv.js', './a.js']);
  });
});
