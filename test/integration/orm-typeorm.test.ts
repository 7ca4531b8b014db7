/**
 * TypeORM (mysql driver over mysql2) against a real ShaleDB: EntitySchema entities (no decorator
 * transform needed) with OneToMany/ManyToOne/ManyToMany relations, synchronize, repositories,
 * QueryBuilder, transactions and a hand-written migration.
 */
import 'reflect-metadata';
import { DataSource, EntitySchema, In, Like, MoreThanOrEqual, QueryFailedError, type MigrationInterface, type QueryRunner } from 'typeorm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpLog, startOrmServer, type OrmServer } from '../helpers/orm.js';

interface Author {
  id: number;
  name: string;
  email: string;
  books?: Book[];
}
interface Book {
  id: number;
  title: string;
  pages: number;
  price: string;
  inPrint: boolean;
  author?: Author;
  genres?: Genre[];
}
interface Genre {
  id: number;
  name: string;
  books?: Book[];
}

const AuthorEntity = new EntitySchema<Author>({
  name: 'Author',
  tableName: 'authors',
  columns: {
    id: { type: Number, primary: true, generated: 'increment' },
    name: { type: 'varchar', length: 80 },
    email: { type: 'varchar', length: 120, unique: true },
  },
  relations: { books: { type: 'one-to-many', target: 'Book', inverseSide: 'author' } },
});

const BookEntity = new EntitySchema<Book>({
  name: 'Book',
  tableName: 'books',
  columns: {
    id: { type: Number, primary: true, generated: 'increment' },
    title: { type: 'varchar', length: 200 },
    pages: { type: 'int', default: 0 },
    price: { type: 'decimal', precision: 8, scale: 2, default: '0.00' },
    inPrint: { type: 'boolean', default: true },
  },
  indices: [{ name: 'idx_books_title', columns: ['title'] }],
  relations: {
    author: { type: 'many-to-one', target: 'Author', inverseSide: 'books', joinColumn: { name: 'authorId' }, onDelete: 'CASCADE' },
    genres: { type: 'many-to-many', target: 'Genre', inverseSide: 'books', joinTable: { name: 'book_genres' } },
  },
});

const GenreEntity = new EntitySchema<Genre>({
  name: 'Genre',
  tableName: 'genres',
  columns: {
    id: { type: Number, primary: true, generated: 'increment' },
    name: { type: 'varchar', length: 40, unique: true },
  },
  relations: { books: { type: 'many-to-many', target: 'Book', inverseSide: 'genres' } },
});

class AddReviews1700000000000 implements MigrationInterface {
  name = 'AddReviews1700000000000';
  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE TABLE `reviews` (`id` int NOT NULL AUTO_INCREMENT, `bookId` int NOT NULL, `stars` tinyint NOT NULL, PRIMARY KEY (`id`))');
    await q.query('CREATE INDEX `idx_reviews_book` ON `reviews` (`bookId`)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE `reviews`');
  }
}

describe('TypeORM', () => {
  let server: OrmServer;
  let ds: DataSource;
  const sent: string[] = [];

  beforeAll(async () => {
    server = await startOrmServer('typeorm_app');
    ds = new DataSource({
      type: 'mysql',
      host: '127.0.0.1',
      port: server.port,
      username: 'root',
      password: '',
      database: server.database,
      entities: [AuthorEntity, BookEntity, GenreEntity],
      migrations: [AddReviews1700000000000],
      synchronize: true,
      logging: true,
      logger: {
        logQuery: (q, p) => void sent.push(p && p.length > 0 ? `${q} -- ${JSON.stringify(p)}` : q),
        logQueryError: (e, q) => void sent.push(`ERROR ${String(e)} IN ${q}`),
        logQuerySlow: () => undefined,
        logSchemaBuild: (m) => void sent.push(`SCHEMA ${m}`),
        logMigration: (m) => void sent.push(`MIGRATION ${m}`),
        log: () => undefined,
      },
    });
    await ds.initialize();
  });

  afterAll(async () => {
    dumpLog('typeorm', sent);
    if (ds?.isInitialized) await ds.destroy();
    await server?.stop();
  });

  it('synchronizes the schema (tables, join table, indexes)', async () => {
    const tables = (await server.rows('SHOW TABLES')).map((r) => Object.values(r)[0]);
    expect(tables.sort()).toEqual(['authors', 'book_genres', 'books', 'genres']);
    const cols = (await server.rows('SHOW COLUMNS FROM books')).map((r) => r['Field']);
    expect(cols).toEqual(['id', 'title', 'pages', 'price', 'inPrint', 'authorId']);
    // A second synchronize reads the schema back (information_schema) and finds nothing to change.
    const before = sent.length;
    await ds.synchronize();
    expect(sent.slice(before).filter((q) => /^(CREATE|ALTER|DROP)/.test(q))).toEqual([]);
  });

  it('saves and finds through repositories with relations', async () => {
    const authors = ds.getRepository(AuthorEntity);
    const books = ds.getRepository(BookEntity);
    const genres = ds.getRepository(GenreEntity);
    const [fantasy, history, poetry] = await genres.save([{ name: 'fantasy' }, { name: 'history' }, { name: 'poetry' }]);
    const ursula = await authors.save({ name: 'Ursula', email: 'ursula@example.com' });
    const mary = await authors.save({ name: 'Mary', email: 'mary@example.com' });
    expect([ursula.id, mary.id]).toEqual([1, 2]);
    await books.save([
      { title: 'Earthsea', pages: 200, price: '9.99', author: ursula, genres: [fantasy as Genre] },
      { title: 'Tehanu', pages: 250, price: '12.50', author: ursula, genres: [fantasy as Genre, poetry as Genre] },
      { title: 'Lathe', pages: 180, price: '7.00', author: ursula, inPrint: false },
      { title: 'Frankenstein', pages: 280, price: '5.25', author: mary, genres: [history as Genre] },
    ]);
    const withBooks = await authors.findOne({ where: { id: ursula.id }, relations: { books: { genres: true } }, order: { books: { id: 'ASC' } } });
    expect(withBooks?.books?.map((b) => b.title)).toEqual(['Earthsea', 'Tehanu', 'Lathe']);
    expect(withBooks?.books?.[1]?.genres?.map((g) => g.name).sort()).toEqual(['fantasy', 'poetry']);
    const tehanu = await books.findOne({ where: { title: 'Tehanu' }, relations: { author: true } });
    expect(tehanu?.author?.name).toBe('Ursula');
    expect(tehanu?.price).toBe('12.50');
    expect(tehanu?.inPrint).toBe(true);
    const found = await books.find({
      where: { pages: MoreThanOrEqual(200), title: Like('%a%') },
      order: { pages: 'DESC' },
    });
    expect(found.map((b) => b.title)).toEqual(['Frankenstein', 'Tehanu', 'Earthsea']);
    expect(await books.countBy({ id: In([1, 2, 99]) })).toBe(2);
    const fantasyBooks = await genres.findOne({ where: { name: 'fantasy' }, relations: { books: true } });
    expect(fantasyBooks?.books?.map((b) => b.title).sort()).toEqual(['Earthsea', 'Tehanu']);
  });

  it('updates and deletes through repositories', async () => {
    const books = ds.getRepository(BookEntity);
    const res = await books.update({ title: 'Lathe' }, { title: 'The Lathe of Heaven', inPrint: true });
    expect(res.affected).toBe(1);
    await books.increment({ id: 1 }, 'pages', 5);
    const lathe = await books.findOneByOrFail({ id: 3 });
    expect([lathe.title, lathe.inPrint]).toEqual(['The Lathe of Heaven', true]);
    expect((await books.findOneByOrFail({ id: 1 })).pages).toBe(205);
    const book = await books.findOneOrFail({ where: { id: 2 }, relations: { genres: true } });
    book.genres = (book.genres ?? []).filter((g) => g.name !== 'poetry');
    await books.save(book);
    expect(await server.rows('SELECT booksId, genresId FROM book_genres ORDER BY booksId, genresId')).toEqual([
      { booksId: 1, genresId: 1 },
      { booksId: 2, genresId: 1 },
      { booksId: 4, genresId: 2 },
    ]);
    const del = await ds.getRepository(GenreEntity).delete({ name: 'poetry' });
    expect(del.affected).toBe(1);
  });

  it('maps a duplicate key to QueryFailedError with the MySQL errno', async () => {
    const err = await ds.getRepository(AuthorEntity).insert({ name: 'Copy', email: 'mary@example.com' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryFailedError);
    expect((err as QueryFailedError & { driverError: { errno: number } }).driverError.errno).toBe(1062);
  });

  it('queries with the QueryBuilder: joins, where, orderBy, skip/take, getManyAndCount', async () => {
    const [rows, total] = await ds
      .getRepository(BookEntity)
      .createQueryBuilder('b')
      .leftJoinAndSelect('b.author', 'a')
      .leftJoinAndSelect('b.genres', 'g')
      .where('a.name IN (:...names)', { names: ['Ursula', 'Mary'] })
      .andWhere('b.pages > :min', { min: 100 })
      .orderBy('b.pages', 'ASC')
      .skip(1)
      .take(2)
      .getManyAndCount();
    expect(total).toBe(4);
    expect(rows.map((b) => [b.title, b.author?.name])).toEqual([
      ['Earthsea', 'Ursula'],
      ['Tehanu', 'Ursula'],
    ]);
    const stats = await ds
      .createQueryBuilder()
      .select('a.name', 'name')
      .addSelect('COUNT(b.id)', 'n')
      .addSelect('SUM(b.pages)', 'pages')
      .from('authors', 'a')
      .innerJoin('books', 'b', 'b.authorId = a.id')
      .groupBy('a.name')
      .orderBy('n', 'DESC')
      .getRawMany<{ name: string; n: string | number; pages: string | number }>();
    expect(stats.map((s) => [s.name, Number(s.n), Number(s.pages)])).toEqual([
      ['Ursula', 3, 635],
      ['Mary', 1, 280],
    ]);
    await ds.createQueryBuilder().update('books').set({ pages: () => 'pages + 1' }).where('authorId = :id', { id: 2 }).execute();
    const frank = await ds.getRepository(BookEntity).findOneByOrFail({ title: 'Frankenstein' });
    expect(frank.pages).toBe(281);
  });

  it('commits and rolls back dataSource.transaction', async () => {
    await ds.transaction(async (em) => {
      const a = await em.save(AuthorEntity, { name: 'Octavia', email: 'octavia@example.com' });
      await em.save(BookEntity, { title: 'Kindred', pages: 264, price: '10.00', author: a });
    });
    const failed = ds.transaction(async (em) => {
      await em.save(AuthorEntity, { name: 'Ghost', email: 'ghost@example.com' });
      throw new Error('abort');
    });
    await expect(failed).rejects.toThrow('abort');
    const qr = ds.createQueryRunner();
    await qr.connect();
    await qr.startTransaction();
    await qr.manager.delete(BookEntity, { title: 'Kindred' });
    await qr.rollbackTransaction();
    await qr.release();
    const names = (await ds.getRepository(AuthorEntity).find({ order: { id: 'ASC' } })).map((a) => a.name);
    expect(names).toEqual(['Ursula', 'Mary', 'Octavia']);
    expect(await ds.getRepository(BookEntity).countBy({ title: 'Kindred' })).toBe(1);
  });

  it('runs and reverts a hand-written migration (its migrations table)', async () => {
    const ran = await ds.runMigrations();
    expect(ran.map((m) => m.name)).toEqual(['AddReviews1700000000000']);
    expect(await server.rows('SELECT timestamp, name FROM migrations')).toEqual([
      { timestamp: 1700000000000, name: 'AddReviews1700000000000' },
    ]);
    await ds.query('INSERT INTO reviews (bookId, stars) VALUES (?, ?)', [1, 5]);
    expect(await ds.query('SELECT bookId, stars FROM reviews')).toEqual([{ bookId: 1, stars: 5 }]);
    expect(await ds.showMigrations()).toBe(false);
    await ds.undoLastMigration();
    expect(await server.rows('SELECT COUNT(*) AS n FROM migrations')).toEqual([{ n: 0 }]);
    expect((await server.rows("SHOW TABLES LIKE 'reviews'")).length).toBe(0);
  });
});
