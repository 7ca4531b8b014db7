/**
 * Generates the Prisma client of a schema into a private gitignored directory and loads it,
 * typed through the small structural interface the ORM test uses.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from './node.js';

type Rec = Record<string, unknown>;

export interface PrismaDelegate {
  create(args: unknown): Promise<Rec>;
  createMany(args: unknown): Promise<{ count: number }>;
  findMany(args?: unknown): Promise<Rec[]>;
  findUnique(args: unknown): Promise<Rec | null>;
  findUniqueOrThrow(args: unknown): Promise<Rec>;
  findFirst(args?: unknown): Promise<Rec | null>;
  count(args?: unknown): Promise<number>;
  aggregate(args: unknown): Promise<Rec>;
  groupBy(args: unknown): Promise<Rec[]>;
  update(args: unknown): Promise<Rec>;
  updateMany(args: unknown): Promise<{ count: number }>;
  upsert(args: unknown): Promise<Rec>;
  delete(args: unknown): Promise<Rec>;
  deleteMany(args?: unknown): Promise<{ count: number }>;
}

export interface PrismaLike {
  readonly user: PrismaDelegate;
  readonly post: PrismaDelegate;
  readonly tag: PrismaDelegate;
  readonly profile: PrismaDelegate;
  $transaction<T>(fn: (tx: PrismaLike) => Promise<T>): Promise<T>;
  $transaction(batch: readonly Promise<unknown>[]): Promise<unknown[]>;
  $queryRawUnsafe(sql: string, ...values: unknown[]): Promise<unknown>;
  $executeRawUnsafe(sql: string, ...values: unknown[]): Promise<number>;
  $disconnect(): Promise<void>;
}

export interface GeneratedPrismaClient {
  /** A client over `adapter` (a driver adapter factory) that reports each SQL statement to `log`. */
  create(adapter: unknown, log: (sql: string) => void): PrismaLike;
}

type Run = (file: string, args: readonly string[], opts: { cwd: string; env: NodeJS.ProcessEnv }) => Promise<unknown>;

export interface GeneratedPrismaClient {
  /** A client over `adapter` (a driver adapter factory) that reports each SQL statement to `log`. */
  create(adapter: unknown, log: (sql: string) => void): PrismaLike;
  /** Removes the generated files. */
  remove(): void;
}

/**
 * Runs `prisma generate` on a copy of `schemaPath` whose output is a fresh directory under the
 * repository's gitignored .tmp/ (inside the repository so the client resolves @prisma/client),
 * then imports the generated client.ts.
 */
export async function generatePrismaClient(run: Run, schemaPath: string): Promise<GeneratedPrismaClient> {
  mkdirSync(join(REPO_ROOT, '.tmp'), { recursive: true });
  const dir = mkdtempSync(join(REPO_ROOT, '.tmp', 'prisma-'));
  const text = readFileSync(schemaPath, 'utf8').replace(/^(\s*output\s*=\s*)"[^"]*"/m, '$1"./client"');
  writeFileSync(join(dir, 'schema.prisma'), text);
  // generate never runs the schema engine, but the CLI wants one to exist before it starts.
  const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false', PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' };
  const cli = join(REPO_ROOT, 'node_modules/prisma/build/index.js');
  await run(process.execPath, [cli, 'generate', '--schema', join(dir, 'schema.prisma')], { cwd: dir, env });
  const entry = join(dir, 'client', 'client.ts');
  if (!existsSync(entry)) throw new Error(`prisma generate wrote no ${entry}`);
  const mod: unknown = await import(pathToFileURL(entry).href);
  const ctor = typeof mod === 'object' && mod !== null ? (mod as Rec)['PrismaClient'] : undefined;
  if (typeof ctor !== 'function') throw new Error('generated client exports no PrismaClient');
  const Client = ctor as new (opts: unknown) => PrismaLike & { $on(event: 'query', cb: (e: { query: string }) => void): void };
  return {
    create(adapter, log) {
      const client = new Client({ adapter, log: [{ emit: 'event', level: 'query' }] });
      client.$on('query', (e) => log(e.query));
      return client;
    },
    remove() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
