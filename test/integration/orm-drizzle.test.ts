/**
 * Drizzle ORM (drizzle-orm/mysql2) against a real ShaleDB: its migrator over a drizzle-kit style
 * migrations folder (test/fixtures/orm-drizzle), then a mysql-core schema for CRUD, joins,
 * relational queries (`db.query.x.findMany({ with })`) and transactions.
 */
import { fileURLToPath } from 'node:url';
import { and, asc, count, desc, eq, gte, inArray, like, relations, sql, sum } from 'drizzle-orm';
import { boolean, datetime, decimal, int, mysqlTable, primaryKey, serial, timestamp, varchar, bigint } from 'drizzle-orm/mysql-core';
import { drizzle, type MySql2Database } from 'drizzle-orm/mysql2';
import { migrate } from 'drizzle-orm/mysql2/migrator';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpLog, startOrmServer, type OrmServer } from '../helpers/orm.js';

const MIGRATIONS = fileURLToPath(new URL('../fixtures/orm-drizzle/migrations', import.meta.url));

const customers = mysqlTable('customers', {
  id: serial('id').primaryKey(),
  email: varchar('email', { length: 120 }).notNull().unique(),
  name: varchar('name', { length: 80 }).notNull(),
  createdAt: timestamp('created_at').notNull().defaultNow(),
});
const products = mysqlTable('products', {
  id: serial('id').primaryKey(),
  sku: varchar('sku', { length: 32 }).notNull().unique(),
  title: varchar('title', { length: 200 }).notNull(),
  price: decimal('price', { precision: 10, scale: 2 }).notNull(),
  active: boolean('active').notNull().default(true),
  stock: int('stock').notNull().default(0),
});
const orders = mysqlTable('orders', {
  id: serial('id').primaryKey(),
  customerId: bigint('customer_id', { mode: 'number', unsigned: true })
    .notNull()
    .references(() => customers.id, { onDelete: 'cascade' }),
  status: varchar('status', { length: 20 }).notNull().default('new'),
  placedAt: datetime('placed_at').notNull(),
});
const orderItems = mysqlTable(
  'order_items',
  {
    orderId: bigint('order_id', { mode: 'number', unsigned: true }).notNull(),
    productId: bigint('product_id', { mode: 'number', unsigned: true }).notNull(),
    quantity: int('quantity').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.productId] })],
);
const customersRelations = relations(customers, ({ many }) => ({ orders: many(orders) }));
const ordersRelations = relations(orders, ({ one, many }) => ({
  customer: one(customers, { fields: [orders.customerId], references: [customers.id] }),
  items: many(orderItems),
}));
const orderItemsRelations = relations(orderItems, ({ one }) => ({
  order: one(orders, { fields: [orderItems.orderId], references: [orders.id] }),
  product: one(products, { fields: [orderItems.productId], references: [products.id] }),
}));
const schema = { customers, products, orders, orderItems, customersRelations, ordersRelations, orderItemsRelations };

describe('Drizzle', () => {
  let server: OrmServer;
  let pool: mysql.Pool;
  let db: MySql2Database<typeof schema>;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startOrmServer('drizzle_app');
    pool = mysql.createPool({ host: '127.0.0.1', port: server.port, user: 'root', database: server.database, connectionLimit: 3 });
    db = drizzle(pool, {
      schema,
      mode: 'default',
      logger: { logQuery: (q, p) => void sent.push(`${q} -- ${JSON.stringify(p)}`) },
    });
  });

  afterAll(async () => {
    dumpLog('drizzle', sent);
    await pool?.end();
    await server?.stop();
  });

  it('applies a drizzle-kit migrations folder with its migrator (idempotently)', async () => {
    await migrate(db, { migrationsFolder: MIGRATIONS });
    const applied = await server.rows('SELECT id, created_at FROM __drizzle_migrations ORDER BY id');
    expect(applied.map((r) => Number(r['created_at']))).toEqual([1717000000000, 1717000100000]);
    await migrate(db, { migrationsFolder: MIGRATIONS });
    expect(await server.rows('SELECT COUNT(*) AS n FROM __drizzle_migrations')).toEqual([{ n: 2 }]);
    const tables = (await server.rows('SHOW TABLES')).map((r) => Object.values(r)[0]);
    expect(tables.sort()).toEqual(['__drizzle_migrations', 'customers', 'order_items', 'orders', 'products']);
    const cols = (await server.rows('SHOW COLUMNS FROM products')).map((r) => r['Field']);
    expect(cols).toEqual(['id', 'sku', 'title', 'price', 'active', 'stock']);
  });

  it('inserts and selects', async () => {
    const [res] = await db.insert(customers).values([
      { email: 'ana@example.com', name: 'Ana' },
      { email: 'bo@example.com', name: 'Bo' },
      { email: 'cleo@example.com', name: 'Cleo' },
    ]);
    expect(res.affectedRows).toBe(3);
    expect(res.insertId).toBe(1);
    const ids = await db.insert(products).values([
      { sku: 'KB-1', title: 'Keyboard', price: '49.90', stock: 10 },
      { sku: 'MS-1', title: 'Mouse', price: '19.50', stock: 25 },
      { sku: 'MN-1', title: 'Monitor', price: '199.00', stock: 3, active: false },
    ]).$returningId();
    expect(ids).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const placedAt = new Date('2024-05-01T12:00:00Z');
    await db.insert(orders).values([
      { customerId: 1, placedAt },
      { customerId: 1, placedAt, status: 'paid' },
      { customerId: 2, placedAt, status: 'paid' },
    ]);
    await db.insert(orderItems).values([
      { orderId: 1, productId: 1, quantity: 1 },
      { orderId: 1, productId: 2, quantity: 2 },
      { orderId: 2, productId: 3, quantity: 1 },
      { orderId: 3, productId: 2, quantity: 5 },
    ]);
    const cheap = await db
      .select({ sku: products.sku, price: products.price, active: products.active })
      .from(products)
      .where(and(gte(products.stock, 5), like(products.title, '%o%')))
      .orderBy(desc(products.price));
    expect(cheap).toEqual([
      { sku: 'KB-1', price: '49.90', active: true },
      { sku: 'MS-1', price: '19.50', active: true },
    ]);
    const some = await db.select().from(customers).where(inArray(customers.id, [2, 3])).orderBy(asc(customers.id)).limit(1).offset(1);
    expect(some.map((c) => c.name)).toEqual(['Cleo']);
    expect(some[0]?.createdAt).toBeInstanceOf(Date);
    const order = await db.select().from(orders).where(eq(orders.id, 1));
    expect(order[0]?.placedAt.toISOString()).toBe('2024-05-01T12:00:00.000Z');
  });

  it('joins and aggregates', async () => {
    const rows = await db
      .select({ name: customers.name, orders: count(orders.id) })
      .from(customers)
      .leftJoin(orders, eq(orders.customerId, customers.id))
      .groupBy(customers.id, customers.name)
      .orderBy(customers.id);
    expect(rows).toEqual([
      { name: 'Ana', orders: 2 },
      { name: 'Bo', orders: 1 },
      { name: 'Cleo', orders: 0 },
    ]);
    const revenue = await db
      .select({ status: orders.status, total: sum(sql`${orderItems.quantity} * ${products.price}`) })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .groupBy(orders.status)
      .orderBy(orders.status);
    expect(revenue).toEqual([
      { status: 'new', total: '88.90' },
      { status: 'paid', total: '296.50' },
    ]);
  });

  it('loads nested relations with db.query findMany/findFirst', async () => {
    const list = await db.query.customers.findMany({
      columns: { name: true },
      with: { orders: { columns: { id: true, status: true }, orderBy: (o, { asc: up }) => [up(o.id)] } },
      orderBy: (c, { asc: up }) => [up(c.id)],
    });
    expect(list).toEqual([
      { name: 'Ana', orders: [{ id: 1, status: 'new' }, { id: 2, status: 'paid' }] },
      { name: 'Bo', orders: [{ id: 3, status: 'paid' }] },
      { name: 'Cleo', orders: [] },
    ]);
    const first = await db.query.orders.findFirst({
      where: (o, { eq: is }) => is(o.id, 1),
      with: { customer: true, items: { with: { product: { columns: { sku: true } } } } },
    });
    expect(first?.customer.email).toBe('ana@example.com');
    expect(first?.items.map((i) => [i.product.sku, i.quantity]).sort()).toEqual([
      ['KB-1', 1],
      ['MS-1', 2],
    ]);
  });

  it('loads relations without LATERAL in planetscale mode (correlated subqueries)', async () => {
    const ps = drizzle(pool, { schema, mode: 'planetscale', logger: { logQuery: (q) => void sent.push(q) } });
    const list = await ps.query.customers.findMany({
      columns: { name: true },
      with: { orders: { columns: { id: true, status: true } } },
      where: (c, { inArray: among }) => among(c.id, [1, 3]),
      orderBy: (c, { desc: down }) => [down(c.id)],
    });
    expect(list.map((c) => [c.name, c.orders.map((o) => o.id).sort()])).toEqual([
      ['Cleo', []],
      ['Ana', [1, 2]],
    ]);
  });

  it('loads nested relations in planetscale mode (a subquery inside JSON_ARRAYAGG)', async () => {
    const ps = drizzle(pool, { schema, mode: 'planetscale', logger: { logQuery: (q) => void sent.push(q) } });
    const order = await ps.query.orders.findFirst({
      columns: { id: true },
      where: (o, { eq: is }) => is(o.id, 1),
      with: { customer: { columns: { name: true } }, items: { columns: { quantity: true }, with: { product: { columns: { sku: true } } } } },
    });
    expect(order?.customer.name).toBe('Ana');
    expect(order?.items.map((i) => [i.product.sku, i.quantity]).sort()).toEqual([
      ['KB-1', 1],
      ['MS-1', 2],
    ]);
  });

  it('updates and deletes', async () => {
    const [upd] = await db.update(products).set({ stock: sql`${products.stock} - 1` }).where(eq(products.sku, 'KB-1'));
    expect(upd.affectedRows).toBe(1);
    await db.update(orders).set({ status: 'shipped' }).where(eq(orders.status, 'paid'));
    expect((await db.select({ s: products.stock }).from(products).where(eq(products.id, 1)))[0]?.s).toBe(9);
    const [del] = await db.delete(orderItems).where(eq(orderItems.orderId, 3));
    expect(del.affectedRows).toBe(1);
    await db
      .insert(products)
      .values({ sku: 'MS-1', title: 'Mouse v2', price: '21.00' })
      .onDuplicateKeyUpdate({ set: { title: 'Mouse v2' } });
    expect((await db.select({ t: products.title }).from(products).where(eq(products.sku, 'MS-1')))[0]?.t).toBe('Mouse v2');
  });

  it('commits and rolls back transactions (with a nested savepoint)', async () => {
    await db.transaction(async (tx) => {
      const [r] = await tx.insert(orders).values({ customerId: 3, placedAt: new Date('2024-06-01T00:00:00Z') });
      await tx.insert(orderItems).values({ orderId: r.insertId, productId: 1, quantity: 2 });
      await tx.update(products).set({ stock: sql`${products.stock} - 2` }).where(eq(products.id, 1));
      await expect(
        tx.transaction(async (inner) => {
          await inner.update(products).set({ stock: 0 }).where(eq(products.id, 2));
          inner.rollback();
        }),
      ).rejects.toThrow();
    });
    await expect(
      db.transaction(async (tx) => {
        await tx.delete(orderItems);
        throw new Error('cancel');
      }),
    ).rejects.toThrow('cancel');
    const stock = await db.select({ id: products.id, stock: products.stock }).from(products).orderBy(products.id);
    expect(stock).toEqual([
      { id: 1, stock: 7 },
      { id: 2, stock: 25 },
      { id: 3, stock: 3 },
    ]);
    expect((await db.select({ n: count() }).from(orderItems))[0]?.n).toBe(4);
    const dup = await db.insert(customers).values({ email: 'bo@example.com', name: 'Bo2' }).catch((e: unknown) => e);
    expect(((dup as { cause?: { errno?: number } }).cause ?? dup) as { errno?: number }).toMatchObject({ errno: 1062 });
  });
});
