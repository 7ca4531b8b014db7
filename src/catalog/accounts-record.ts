/**
 * One stored account: its name, the password's double hashes (never the password) and its
 * grants at the global, database and table level. Privilege names are opaque strings to the
 * catalog (the session layer knows what they mean).
 *
 * Stored as UTF-8 JSON under metaKey('account', user, host), e.g. for 'app'@'%' with password
 * 'pw' and `GRANT SELECT, INSERT ON shop.* TO app`:
 *
 *   {"user":"app","host":"%","nativeHash":"<40 hex>","sha2Hash":"<64 hex>","global":[],
 *    "dbs":[{"db":"shop","privs":["SELECT","INSERT"]}],"tables":[]}
 */
import { fromHex, toHex, utf8Decode, utf8Encode } from '../util/index.js';
import { asArray, asObject, MetaFormatError, parseJson, str, strArray, type JsonObject } from './json-check.js';

export interface DbGrant {
  readonly db: string;
  readonly privs: readonly string[];
}

export interface TableGrant {
  readonly db: string;
  readonly table: string;
  readonly privs: readonly string[];
}

export interface StoredAccount {
  readonly user: string;
  /** Host pattern as stored (lower-cased): `%`, an exact host, or a pattern with `%` / `_`. */
  readonly host: string;
  /** SHA1(SHA1(password)); empty for an empty password. */
  readonly nativeHash: Uint8Array;
  /** SHA256(SHA256(password)); empty for an empty password. */
  readonly sha2Hash: Uint8Array;
  readonly global: readonly string[];
  readonly dbs: readonly DbGrant[];
  readonly tables: readonly TableGrant[];
}

export function encodeAccount(a: StoredAccount): Uint8Array {
  return utf8Encode(
    JSON.stringify({
      user: a.user,
      host: a.host,
      nativeHash: toHex(a.nativeHash),
      sha2Hash: toHex(a.sha2Hash),
      global: a.global,
      dbs: a.dbs.map((g) => ({ db: g.db, privs: g.privs })),
      tables: a.tables.map((g) => ({ db: g.db, table: g.table, privs: g.privs })),
    }),
  );
}

export function decodeAccount(bytes: Uint8Array): StoredAccount {
  const o = asObject(parseJson(utf8Decode(bytes), 'account'), 'account');
  const what = `account ${String(o['user'])}@${String(o['host'])}`;
  return {
    user: str(o, 'user', what),
    host: str(o, 'host', what),
    nativeHash: hexField(o, 'nativeHash', what),
    sha2Hash: hexField(o, 'sha2Hash', what),
    global: strArray(o, 'global', what),
    dbs: asArray(o['dbs'], `${what}.dbs`).map((v, i) => {
      const g = asObject(v, `${what}.dbs[${i}]`);
      return { db: str(g, 'db', `${what}.dbs[${i}]`), privs: strArray(g, 'privs', `${what}.dbs[${i}]`) };
    }),
    tables: asArray(o['tables'], `${what}.tables`).map((v, i) => {
      const w = `${what}.tables[${i}]`;
      const g = asObject(v, w);
      return { db: str(g, 'db', w), table: str(g, 'table', w), privs: strArray(g, 'privs', w) };
    }),
  };
}

function hexField(o: JsonObject, key: string, what: string): Uint8Array {
  const v = str(o, key, what);
  if (!/^(?:[0-9a-f]{2})*$/.test(v)) throw new MetaFormatError(`${what}.${key} is not hex`);
  return fromHex(v);
}
