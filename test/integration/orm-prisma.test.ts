/**
 * Prisma 7 against a real ShaleDB through the driver adapter @prisma/adapter-mariadb (the
 * `mariadb` driver; Prisma's query compiler runs as WASM, no engine binary).
 *
 * `prisma generate` works offline: it only needs the bundled WASM, but the CLI insists on
 * locating a schema-engine binary first (downloaded from binaries.prisma.sh, unreachable here),
 * so PRISMA_SCHEMA_ENGINE_BINARY points at a dummy. `prisma migrate` needs that engine for real,
 * so the tables come from test/fixtures/orm-prisma/migrations (migrate's layout, applied here).
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PrismaMariaDb } from '@prisma/adapter-mariadb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/node.js';
import { dumpLog, startOrmServer, type OrmServer } from '../helpers/orm.js';
import { generatePrismaClient, type GeneratedPrismaClient, type PrismaLike } from '../helpers/orm-prisma.js';

const FIXTURE = join(REPO_ROOT, 'test/fixtures/orm-prisma');
const run = promisify(execFile);

/** The statements of every migration.sql, in migration order. */
function migrationStatements(): string[] {
  const dir = join(FIXTURE, 'migrations');
  const names = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  return names.flatMap((n) =>
    readFileSync(join(dir, n, 'migration.sql'), 'utf8')
      .split(/;\s*$/m)
      .map((s) => s.replace(/^--.*$/gm, '').trim())
      .filter((s) => s.length > 0),
  );
}

describe('Prisma', () => {
  let server: OrmServer;
  let prisma: PrismaLike;
  let client: GeneratedPrismaClient | undefined;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startOrmServer('prisma_app');
    client = await generatePrismaClient(run, join(FIXTURE, 'schema.prisma'));
    for (const stmt of migrationStatements()) await server.admin.query(stmt);
    const adapter = new PrismaMariaDb({ host: '127.0.0.1', port: server.port, user: 'root', database: server.database, connectionLimit: 3 });
    prisma = client.create(adapter, (q) => void sent.push(q));
  });

  afterAll(async () => {
    dumpLog('prisma', sent);
    await prisma?.$disconnect();
    await server?.stop();
    client?.remove();
  });

  it('has the migrated tables', async () => {
    const tables = (await server.rows('SHOW TABLES')).map((r) => Object.values(r)[0]);
    expect(tables.sort()).toEqual(['Post', 'Profile', 'Tag', 'User', '_PostToTag']);
  });

  it('creates records with nested writes', async () => {
    const ada = await prisma.user.create({
      data: {
        email: 'ada@example.com',
        name: 'Ada',
        profile: { create: { bio: 'Analyst' } },
        posts: {
          create: [
            { title: 'Notes', body: 'on the engine', likes: 5, price: '1.50', published: true, tags: { create: [{ name: 'math' }, { name: 'history' }] } },
            { title: 'Draft', likes: 0 },
          ],
        },
      },
      include: { posts: { include: { tags: true } }, profile: true },
    });
    expect(ada).toMatchObject({ id: 1, email: 'ada@example.com', role: 'member', profile: { bio: 'Analyst', userId: 1 } });
    expect((ada['createdAt'] as Date).getTime()).toBeGreaterThan(0);
    const count = await prisma.user.createMany({
      data: [
        { email: 'bob@example.com', name: 'Bob' },
        { email: 'cy@example.com', name: null, role: 'admin' },
      ],
    });
    expect(count).toEqual({ count: 2 });
    await prisma.post.create({ data: { title: 'Hello', likes: 12, published: true, author: { connect: { email: 'bob@example.com' } }, tags: { connect: [{ name: 'math' }] } } });
    expect(await server.rows('SELECT A, B FROM _PostToTag ORDER BY A, B')).toEqual([
      { A: 1, B: 1 },
      { A: 1, B: 2 },
      { A: 3, B: 1 },
    ]);
  });

  it('reads with filters, includes, ordering and pagination', async () => {
    const posts = await prisma.post.findMany({
      where: { published: true, title: { contains: 'o' }, likes: { gte: 5 } },
      orderBy: { likes: 'desc' },
      select: { title: true, likes: true, author: { select: { name: true } }, tags: { select: { name: true }, orderBy: { name: 'asc' } } },
    });
    expect(posts).toEqual([
      { title: 'Hello', likes: 12, author: { name: 'Bob' }, tags: [{ name: 'math' }] },
      { title: 'Notes', likes: 5, author: { name: 'Ada' }, tags: [{ name: 'history' }, { name: 'math' }] },
    ]);
    const page = await prisma.user.findMany({ orderBy: { id: 'asc' }, skip: 1, take: 1, select: { email: true } });
    expect(page).toEqual([{ email: 'bob@example.com' }]);
    const ids = await prisma.user.findMany({ where: { id: { in: [1, 3] } }, select: { id: true }, orderBy: { id: 'desc' } });
    expect(ids).toEqual([{ id: 3 }, { id: 1 }]);
    const unique = await prisma.user.findUnique({ where: { email: 'ada@example.com' }, include: { _count: { select: { posts: true } } } });
    expect(unique?.['_count']).toEqual({ posts: 2 });
    const notes = await prisma.post.findFirst({ where: { title: 'Notes' } });
    expect(String(notes?.['price'])).toBe('1.5');
    expect(await prisma.post.count({ where: { author: { email: 'ada@example.com' } } })).toBe(2);
  });

  it('aggregates and groups', async () => {
    const agg = await prisma.post.aggregate({ _sum: { likes: true }, _max: { likes: true }, _count: { _all: true } });
    expect(agg).toEqual({ _sum: { likes: 17 }, _max: { likes: 12 }, _count: { _all: 3 } });
    const groups = await prisma.post.groupBy({ by: ['authorId'], _count: { _all: true }, orderBy: { authorId: 'asc' } });
    expect(groups).toEqual([
      { authorId: 1, _count: { _all: 2 } },
      { authorId: 2, _count: { _all: 1 } },
    ]);
  });

  it('updates, upserts and deletes', async () => {
    const up = await prisma.post.update({ where: { id: 2 }, data: { likes: { increment: 3 }, published: true } });
    expect(up).toMatchObject({ id: 2, likes: 3, published: true });
    expect(await prisma.user.updateMany({ where: { name: null }, data: { name: 'Anon' } })).toEqual({ count: 1 });
    const created = await prisma.tag.upsert({ where: { name: 'art' }, update: {}, create: { name: 'art' } });
    const again = await prisma.tag.upsert({ where: { name: 'art' }, update: { name: 'arts' }, create: { name: 'art' } });
    expect([created['id'], again['name']]).toEqual([3, 'arts']);
    await prisma.post.delete({ where: { id: 3 } });
    expect(await prisma.post.deleteMany({ where: { likes: { lt: 4 } } })).toEqual({ count: 1 });
    expect(await server.rows('SELECT id FROM Post')).toEqual([{ id: 1 }]);
    expect(await server.rows('SELECT A, B FROM _PostToTag ORDER BY A, B')).toEqual([
      { A: 1, B: 1 },
      { A: 1, B: 2 },
    ]);
  });

  it('maps a unique violation to P2002', async () => {
    const err = await prisma.user.create({ data: { email: 'bob@example.com' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'P2002' });
  });

  it('runs batch and interactive transactions', async () => {
    const [n, u] = await prisma.$transaction([prisma.tag.count(), prisma.user.update({ where: { id: 3 }, data: { role: 'owner' } })]);
    expect([n, (u as Record<string, unknown>)['role']]).toEqual([3, 'owner']);
    await expect(
      prisma.$transaction(async (tx) => {
        await tx.user.update({ where: { id: 1 }, data: { name: 'Changed' } });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    await prisma.$transaction(async (tx) => {
      const bob = await tx.user.findUniqueOrThrow({ where: { email: 'bob@example.com' } });
      await tx.post.create({ data: { title: 'From tx', authorId: bob['id'] } });
    });
    expect((await prisma.user.findUnique({ where: { id: 1 } }))?.['name']).toBe('Ada');
    expect(await prisma.post.count({ where: { title: 'From tx' } })).toBe(1);
  });

  it('runs raw queries', async () => {
    const rows = await prisma.$queryRawUnsafe('SELECT email FROM User WHERE id = ?', 2);
    expect(rows).toEqual([{ email: 'bob@example.com' }]);
    expect(await prisma.$executeRawUnsafe('UPDATE Post SET likes = likes + ? WHERE id = ?', 10, 1)).toBe(1);
    expect(sent.length).toBeGreaterThan(0);
  });
});
