/**
 * Knex 3 (mysql2 client) against a real ShaleDB: schema builder, introspection, alterTable,
 * migrations from a directory (knex_migrations + knex_migrations_lock), query builder CRUD,
 * joins, aggregates, transactions and raw queries.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/node.js';
import { dumpLog, startOrmServer, type OrmServer } from '../helpers/orm.js';

const MIGRATION_1 = `
exports.up = (knex) => knex.schema.createTable('events', (t) => {
  t.increments('id');
  t.string('kind', 30).notNullable();
  t.integer('customer_id').unsigned().notNullable();
  t.timestamp('at').notNullable().defaultTo(knex.fn.now());
  t.index(['customer_id', 'kind'], 'idx_events_customer_kind');
});
exports.down = (knex) => knex.schema.dropTable('events');
`;
const MIGRATION_2 = `
exports.up = (knex) => knex.schema.alterTable('events', (t) => { t.string('payload', 255).nullable(); });
exports.down = (knex) => knex.schema.alterTable('events', (t) => { t.dropColumn('payload'); });
`;

describe('Knex', () => {
  let server: OrmServer;
  let knex: Knex;
  let migrationsDir: string;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startOrmServer('knex_app');
    migrationsDir = tempDir('knex-migrations');
    mkdirSync(migrationsDir, { recursive: true });
    writeFileSync(join(migrationsDir, '20240101000000_create_events.cjs'), MIGRATION_1);
    writeFileSync(join(migrationsDir, '20240102000000_add_payload.cjs'), MIGRATION_2);
    knex = knexFactory({
      client: 'mysql2',
      connection: { host: '127.0.0.1', port: server.port, user: 'root', database: server.database },
      pool: { min: 0, max: 3 },
      migrations: { directory: migrationsDir, loadExtensions: ['.cjs'] },
    });
    knex.on('query', (q: { sql: string; bindings?: unknown[] }) => void sent.push(`${q.sql} -- ${JSON.stringify(q.bindings ?? [])}`));
  });

  afterAll(async () => {
    dumpLog('knex', sent);
    await knex?.destroy();
    await server?.stop();
    if (migrationsDir) removeDir(migrationsDir);
  });

  it('creates tables with the schema builder', async () => {
    await knex.schema.createTable('customers', (t) => {
      t.increments('id');
      t.string('email', 120).notNullable().unique();
      t.string('name', 80).notNullable();
      t.boolean('active').notNullable().defaultTo(true);
      t.timestamps(true, true);
    });
    await knex.schema.createTable('orders', (t) => {
      t.increments('id');
      t.integer('customer_id').unsigned().notNullable();
      t.decimal('total', 10, 2).notNullable();
      t.integer('items').notNullable().defaultTo(1);
      t.dateTime('placed_at').notNullable();
      t.foreign('customer_id').references('customers.id').onDelete('CASCADE');
      t.index(['placed_at'], 'idx_orders_placed');
    });
    expect(await knex.schema.hasTable('customers')).toBe(true);
    expect(await knex.schema.hasTable('nope')).toBe(false);
    expect(await knex.schema.hasColumn('orders', 'total')).toBe(true);
    expect(await knex.schema.hasColumn('orders', 'missing')).toBe(false);
    const cols = await server.rows('SHOW COLUMNS FROM customers');
    expect(cols.map((c) => [c['Field'], c['Type'], c['Null']])).toEqual([
      ['id', 'int unsigned', 'NO'],
      ['email', 'varchar(120)', 'NO'],
      ['name', 'varchar(80)', 'NO'],
      ['active', 'tinyint(1)', 'NO'],
      ['created_at', 'timestamp', 'NO'],
      ['updated_at', 'timestamp', 'NO'],
    ]);
  });

  it('alters a table', async () => {
    await knex.schema.alterTable('customers', (t) => {
      t.string('city', 60).nullable();
      t.index(['city'], 'idx_customers_city');
    });
    expect(await knex.schema.hasColumn('customers', 'city')).toBe(true);
    await knex.schema.alterTable('customers', (t) => {
      t.dropIndex(['city'], 'idx_customers_city');
      t.renameColumn('city', 'town');
    });
    expect(await knex.schema.hasColumn('customers', 'town')).toBe(true);
  });

  it('runs migrations from a directory and rolls them back', async () => {
    const [batch, files] = (await knex.migrate.latest()) as [number, string[]];
    expect(batch).toBe(1);
    expect(files).toEqual(['20240101000000_create_events.cjs', '20240102000000_add_payload.cjs']);
    expect(await knex.schema.hasColumn('events', 'payload')).toBe(true);
    const done = await knex('knex_migrations').select('name', 'batch').orderBy('id');
    expect(done).toEqual([
      { name: '20240101000000_create_events.cjs', batch: 1 },
      { name: '20240102000000_add_payload.cjs', batch: 1 },
    ]);
    expect(await knex('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
    expect(await knex.migrate.currentVersion()).toBe('20240102000000');
    await knex.migrate.rollback();
    expect(await knex.schema.hasTable('events')).toBe(false);
    expect(await knex('knex_migrations').count({ n: '*' })).toEqual([{ n: 0 }]);
    await knex.migrate.latest();
    expect(await knex.schema.hasTable('events')).toBe(true);
  });

  it('inserts, selects, updates and deletes with the query builder', async () => {
    const [first] = await knex('customers').insert({ email: 'ann@example.com', name: 'Ann' });
    expect(first).toBe(1);
    await knex('customers').insert([
      { email: 'ben@example.com', name: 'Ben', town: 'Oslo' },
      { email: 'cat@example.com', name: 'Cat', town: 'Rome', active: false },
    ]);
    const placed = new Date('2024-03-01T10:00:00Z');
    await knex('orders').insert([
      { customer_id: 1, total: '19.99', items: 2, placed_at: placed },
      { customer_id: 1, total: '5.00', placed_at: placed },
      { customer_id: 2, total: '100.50', items: 4, placed_at: placed },
    ]);
    const active = await knex('customers').where({ active: true }).whereIn('id', [1, 2, 3]).orderBy('name', 'desc').pluck('name');
    expect(active).toEqual(['Ben', 'Ann']);
    const like = await knex('customers').where('email', 'like', 'c%').first('name', 'active');
    expect(like).toEqual({ name: 'Cat', active: 0 });
    expect(await knex('orders').where('total', '>=', 10).count({ n: 'id' })).toEqual([{ n: 2 }]);
    const updated = await knex('customers').where('name', 'Ann').update({ town: 'Paris', updated_at: knex.fn.now() });
    expect(updated).toBe(1);
    await knex('orders').where('id', 2).increment('items', 3);
    expect(await knex('orders').where('id', 2).first('items')).toEqual({ items: 4 });
    const page = await knex('orders').select('id').orderBy('id').limit(2).offset(1);
    expect(page).toEqual([{ id: 2 }, { id: 3 }]);
    const dup = await knex('customers').insert({ email: 'ann@example.com', name: 'Ann 2' }).catch((e: unknown) => e);
    expect((dup as { code?: string }).code).toBe('ER_DUP_ENTRY');
    await knex('customers').insert({ email: 'ann@example.com', name: 'Ann B' }).onConflict('email').merge(['name']);
    expect(await knex('customers').where('email', 'ann@example.com').first('name')).toEqual({ name: 'Ann B' });
  });

  it('joins and aggregates', async () => {
    const rows = await knex('customers as c')
      .leftJoin('orders as o', 'o.customer_id', 'c.id')
      .select('c.name')
      .count({ orders: 'o.id' })
      .sum({ spent: 'o.total' })
      .groupBy('c.id', 'c.name')
      .orderBy('c.id');
    expect((rows as Record<string, unknown>[]).map((r) => [r['name'], Number(r['orders']), r['spent'] === null ? null : Number(r['spent'])])).toEqual([
      ['Ann B', 2, 24.99],
      ['Ben', 1, 100.5],
      ['Cat', 0, null],
    ]);
    const big = await knex('orders as o')
      .join('customers as c', 'c.id', '=', 'o.customer_id')
      .where('o.items', '>', 2)
      .select('c.email', 'o.total');
    expect(big).toEqual([
      { email: 'ann@example.com', total: '5.00' },
      { email: 'ben@example.com', total: '100.50' },
    ]);
  });

  it('commits and rolls back transactions', async () => {
    await knex.transaction(async (trx) => {
      await trx('events').insert({ kind: 'signup', customer_id: 3 });
      await trx('customers').where('id', 3).update({ active: true });
    });
    await expect(
      knex.transaction(async (trx) => {
        await trx('events').insert({ kind: 'bogus', customer_id: 3 });
        throw new Error('nope');
      }),
    ).rejects.toThrow('nope');
    const trx = await knex.transaction();
    try {
      await trx('orders').del();
    } finally {
      await trx.rollback();
    }
    expect(await knex('events').pluck('kind')).toEqual(['signup']);
    expect(await knex('orders').count({ n: '*' })).toEqual([{ n: 3 }]);
    expect(await knex('customers').where('id', 3).first('active')).toEqual({ active: 1 });
  });

  it('runs raw statements and deletes', async () => {
    const [rows] = (await knex.raw('SELECT ?? AS who, ? + 1 AS n FROM customers WHERE id = ?', ['name', 41, 2])) as [unknown[]];
    expect(rows).toEqual([{ who: 'Ben', n: 42 }]);
    expect(await knex('orders').where('customer_id', 2).del()).toBe(1);
    await knex.schema.dropTable('orders');
    expect(await knex.schema.hasTable('orders')).toBe(false);
  });
});
