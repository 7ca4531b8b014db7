/**
 * Sequelize 6 (mysql dialect over mysql2) against a real ShaleDB: a small blog app with
 * associations, schema sync (force and alter), eager loading, operators, pagination,
 * transactions, upserts and error mapping.
 */
import { DataTypes, Model, Op, Sequelize, UniqueConstraintError, type ModelStatic } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpLog, startOrmServer, type OrmServer } from '../helpers/orm.js';

type Row = Model & Record<string, unknown>;

describe('Sequelize', () => {
  let server: OrmServer;
  let sequelize: Sequelize;
  let User: ModelStatic<Row>;
  let Post: ModelStatic<Row>;
  let Tag: ModelStatic<Row>;
  let PostTag: ModelStatic<Row>;
  const sent: string[] = [];

  function defineModels(): void {
    User = sequelize.define<Row>('User', {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      email: { type: DataTypes.STRING(120), allowNull: false, unique: true },
      name: { type: DataTypes.STRING(80), allowNull: false },
      karma: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
    });
    Post = sequelize.define<Row>('Post', {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      title: { type: DataTypes.STRING(200), allowNull: false },
      body: { type: DataTypes.TEXT, allowNull: true },
      views: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
      price: { type: DataTypes.DECIMAL(10, 2), allowNull: true },
      published: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
    });
    Tag = sequelize.define<Row>('Tag', {
      id: { type: DataTypes.INTEGER, autoIncrement: true, primaryKey: true },
      label: { type: DataTypes.STRING(40), allowNull: false, unique: true },
    });
    PostTag = sequelize.define<Row>('PostTag', {}, { tableName: 'post_tags' });
    User.hasMany(Post, { as: 'posts', foreignKey: 'authorId' });
    Post.belongsTo(User, { as: 'author', foreignKey: 'authorId' });
    Post.belongsToMany(Tag, { through: PostTag, as: 'tags', foreignKey: 'postId', otherKey: 'tagId' });
    Tag.belongsToMany(Post, { through: PostTag, as: 'posts', foreignKey: 'tagId', otherKey: 'postId' });
  }

  beforeAll(async () => {
    server = await startOrmServer('seq_app');
    sequelize = new Sequelize(server.database, 'root', '', {
      host: '127.0.0.1',
      port: server.port,
      dialect: 'mysql',
      logging: (sql) => sent.push(sql),
      pool: { max: 3, min: 0 },
    });
    await sequelize.authenticate();
    defineModels();
  });

  afterAll(async () => {
    dumpLog('sequelize', sent);
    await sequelize?.close();
    await server?.stop();
  });

  it('creates the schema with sync({ force: true })', async () => {
    await sequelize.sync({ force: true });
    const tables = (await server.rows('SHOW TABLES')).map((r) => Object.values(r)[0]);
    expect(tables.sort()).toEqual(['Posts', 'Tags', 'Users', 'post_tags']);
    expect((await server.rows('SHOW INDEX FROM Users')).map((r) => r['Column_name'])).toEqual(['id', 'email']);
  });

  it('alters a table after a model change with sync({ alter: true })', async () => {
    const v1 = sequelize.define('Setting', { key: { type: DataTypes.STRING(40), allowNull: false } });
    await v1.sync({ force: true });
    await v1.create({ key: 'theme' });
    const v2 = sequelize.define('Setting', {
      key: { type: DataTypes.STRING(60), allowNull: false },
      value: { type: DataTypes.STRING(200), allowNull: true },
    });
    await v2.sync({ alter: true });
    const cols = await server.rows('SHOW COLUMNS FROM Settings');
    expect(cols.map((r) => [r['Field'], r['Type']])).toEqual([
      ['id', 'int'],
      ['key', 'varchar(60)'],
      ['createdAt', 'datetime'],
      ['updatedAt', 'datetime'],
      ['value', 'varchar(200)'],
    ]);
    await v2.update({ value: 'dark' }, { where: { key: 'theme' } });
    expect((await v2.findOne())?.get('value')).toBe('dark');
  });

  it('creates rows, bulkCreate and associations', async () => {
    const ada = await User.create({ email: 'ada@example.com', name: 'Ada' });
    expect(ada.get('id')).toBe(1);
    const users = await User.bulkCreate([
      { email: 'bob@example.com', name: 'Bob' },
      { email: 'cy@example.com', name: 'Cy' },
    ]);
    expect(users).toHaveLength(2);
    const tags = await Tag.bulkCreate([{ label: 'db' }, { label: 'js' }, { label: 'ops' }]);
    const adaId = ada.get('id');
    for (let i = 1; i <= 7; i++) {
      await Post.create({ title: `Post ${i}`, body: `body ${i}`, views: i * 10, price: `${i}.50`, authorId: adaId });
    }
    const bobPost = await Post.create({ title: 'Bob says hi', authorId: users[0]?.get('id'), published: true });
    const p1 = await Post.findByPk(1);
    expect(p1).not.toBeNull();
    await (p1 as unknown as { setTags(t: unknown[]): Promise<void> }).setTags([tags[0], tags[1]]);
    await (bobPost as unknown as { addTag(t: unknown): Promise<void> }).addTag(tags[2]);
    expect(await server.rows('SELECT postId, tagId FROM post_tags ORDER BY postId, tagId')).toEqual([
      { postId: 1, tagId: 1 },
      { postId: 1, tagId: 2 },
      { postId: 8, tagId: 3 },
    ]);
  });

  it('eager loads with include (hasMany, belongsTo, belongsToMany)', async () => {
    const ada = await User.findOne({
      where: { email: 'ada@example.com' },
      include: [{ model: Post, as: 'posts' }],
      order: [[{ model: Post, as: 'posts' }, 'id', 'ASC']],
    });
    const posts = ada?.get('posts') as Row[];
    expect(posts.map((p) => p.get('title'))).toEqual([1, 2, 3, 4, 5, 6, 7].map((i) => `Post ${i}`));
    const post = await Post.findByPk(1, {
      include: [
        { model: User, as: 'author' },
        { model: Tag, as: 'tags' },
      ],
    });
    expect((post?.get('author') as Row).get('name')).toBe('Ada');
    expect((post?.get('tags') as Row[]).map((t) => t.get('label')).sort()).toEqual(['db', 'js']);
    const tagged = await Post.findAll({
      include: [{ model: Tag, as: 'tags', where: { label: 'ops' } }],
    });
    expect(tagged.map((p) => p.get('title'))).toEqual(['Bob says hi']);
  });

  it('filters with Op.in, Op.like, Op.gte, order and limit/offset', async () => {
    const inList = await User.findAll({ where: { name: { [Op.in]: ['Bob', 'Cy'] } }, order: [['name', 'DESC']] });
    expect(inList.map((u) => u.get('name'))).toEqual(['Cy', 'Bob']);
    const like = await Post.findAll({ where: { title: { [Op.like]: 'Post %' }, views: { [Op.gte]: 50 } }, order: [['views', 'ASC']] });
    expect(like.map((p) => p.get('views'))).toEqual([50, 60, 70]);
    const page = await Post.findAll({ order: [['id', 'ASC']], limit: 3, offset: 3 });
    expect(page.map((p) => p.get('id'))).toEqual([4, 5, 6]);
    const { count, rows } = await Post.findAndCountAll({
      where: { authorId: 1 },
      order: [['id', 'DESC']],
      limit: 2,
      offset: 1,
    });
    expect(count).toBe(7);
    expect(rows.map((p) => p.get('id'))).toEqual([6, 5]);
    const price = await Post.findByPk(2);
    expect(price?.get('price')).toBe('2.50');
    expect(await Post.count({ where: { published: true } })).toBe(1);
    expect(await Post.max('views')).toBe(70);
  });

  it('runs managed and unmanaged transactions with rollback on error', async () => {
    await sequelize.transaction(async (t) => {
      await User.create({ email: 'dee@example.com', name: 'Dee' }, { transaction: t });
    });
    await expect(
      sequelize.transaction(async (t) => {
        await User.create({ email: 'eve@example.com', name: 'Eve' }, { transaction: t });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const t = await sequelize.transaction();
    await User.update({ karma: 99 }, { where: { name: 'Bob' }, transaction: t });
    await t.rollback();
    const t2 = await sequelize.transaction();
    await User.update({ karma: 5 }, { where: { name: 'Cy' }, transaction: t2 });
    await t2.commit();
    const names = (await User.findAll({ order: [['id', 'ASC']] })).map((u) => [u.get('name'), u.get('karma')]);
    expect(names).toEqual([
      ['Ada', 0],
      ['Bob', 0],
      ['Cy', 5],
      ['Dee', 0],
    ]);
  });

  it('findOrCreate, upsert and increment', async () => {
    const [found, created] = await User.findOrCreate({ where: { email: 'ada@example.com' }, defaults: { name: 'X' } });
    expect(created).toBe(false);
    expect(found.get('name')).toBe('Ada');
    const [fresh, created2] = await User.findOrCreate({ where: { email: 'fay@example.com' }, defaults: { name: 'Fay' } });
    expect(created2).toBe(true);
    expect(fresh.get('id')).toBeGreaterThan(4);
    await Tag.upsert({ id: 1, label: 'databases' });
    await Tag.upsert({ label: 'web' });
    expect((await Tag.findAll({ order: [['id', 'ASC']] })).map((t) => t.get('label'))).toEqual([
      'databases',
      'js',
      'ops',
      'web',
    ]);
    const post = await Post.findByPk(3);
    await post?.increment('views', { by: 5 });
    await Post.increment({ views: 1 }, { where: { id: { [Op.in]: [1, 2] } } });
    const views = (await Post.findAll({ where: { id: [1, 2, 3] }, order: [['id', 'ASC']] })).map((p) => p.get('views'));
    expect(views).toEqual([11, 21, 35]);
  });

  it('re-runs sync({ alter: true }) over the populated schema without losing rows', async () => {
    await sequelize.sync({ alter: true });
    expect(await User.count()).toBe(5);
    expect(await PostTag.count()).toBe(3);
    const fks = await server.rows(
      "SELECT CONSTRAINT_NAME AS name FROM information_schema.REFERENTIAL_CONSTRAINTS WHERE CONSTRAINT_SCHEMA = 'seq_app' AND TABLE_NAME = 'post_tags'",
    );
    expect(fks).toHaveLength(2);
    // Sequelize re-sends `CHANGE email email VARCHAR(120) NOT NULL UNIQUE`: MySQL adds email_2.
    const keys = (await server.rows('SHOW INDEX FROM Users')).map((r) => r['Key_name']);
    expect(keys).toEqual(['PRIMARY', 'email', 'email_2']);
  });

  it('maps a duplicate key to UniqueConstraintError', async () => {
    const err = await User.create({ email: 'bob@example.com', name: 'Bob again' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UniqueConstraintError);
    expect((err as UniqueConstraintError).parent.message).toMatch(/Duplicate entry 'bob@example.com'/);
  });

  it('destroys rows (with the join table)', async () => {
    await PostTag.destroy({ where: { postId: 8 } });
    expect(await Post.destroy({ where: { authorId: 2 } })).toBe(1);
    expect(await Post.destroy({ where: { views: { [Op.lt]: 40 } } })).toBe(3);
    const [rows] = await sequelize.query('SELECT COUNT(*) AS n FROM Posts');
    expect(rows).toEqual([{ n: 4 }]);
  });
});
