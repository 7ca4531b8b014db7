/**
 * Protocol constants of the MySQL client/server protocol.
 * Spec: /work/shared/reference/mysql-protocol.md §1.4 (capabilities), §2 (commands),
 * §3.3 (status flags), §3.5 (column flags), §2.2 (wire type codes).
 */

/** Capability flags (client and server). */
export const Cap = {
  LONG_PASSWORD: 0x1,
  FOUND_ROWS: 0x2,
  LONG_FLAG: 0x4,
  CONNECT_WITH_DB: 0x8,
  PROTOCOL_41: 0x200,
  INTERACTIVE: 0x400,
  SSL: 0x800,
  TRANSACTIONS: 0x2000,
  SECURE_CONNECTION: 0x8000,
  MULTI_STATEMENTS: 0x10000,
  MULTI_RESULTS: 0x20000,
  PS_MULTI_RESULTS: 0x40000,
  PLUGIN_AUTH: 0x80000,
  CONNECT_ATTRS: 0x100000,
  PLUGIN_AUTH_LENENC_CLIENT_DATA: 0x200000,
} as const;

/** What the server advertises: no SSL, no DEPRECATE_EOF, no SESSION_TRACK, no QUERY_ATTRIBUTES. */
export const SERVER_CAPABILITIES = 0x003fa60f;

/** Server status flags carried by OK and EOF packets. */
export const Status = {
  IN_TRANS: 0x1,
  AUTOCOMMIT: 0x2,
  MORE_RESULTS_EXISTS: 0x8,
} as const;

/** Command bytes (first payload byte of a client command packet). */
export const Command = {
  QUIT: 0x01,
  INIT_DB: 0x02,
  QUERY: 0x03,
  FIELD_LIST: 0x04,
  STATISTICS: 0x09,
  PING: 0x0e,
  CHANGE_USER: 0x11,
  STMT_PREPARE: 0x16,
  STMT_EXECUTE: 0x17,
  STMT_SEND_LONG_DATA: 0x18,
  STMT_CLOSE: 0x19,
  STMT_RESET: 0x1a,
  SET_OPTION: 0x1b,
  RESET_CONNECTION: 0x1f,
} as const;

/** Column / parameter wire type codes. */
export const WireType = {
  DECIMAL: 0,
  TINY: 1,
  SHORT: 2,
  LONG: 3,
  FLOAT: 4,
  DOUBLE: 5,
  NULL: 6,
  TIMESTAMP: 7,
  LONGLONG: 8,
  INT24: 9,
  DATE: 10,
  TIME: 11,
  DATETIME: 12,
  YEAR: 13,
  VARCHAR: 15,
  BIT: 16,
  JSON: 245,
  NEWDECIMAL: 246,
  ENUM: 247,
  SET: 248,
  TINY_BLOB: 249,
  MEDIUM_BLOB: 250,
  LONG_BLOB: 251,
  BLOB: 252,
  VAR_STRING: 253,
  STRING: 254,
  GEOMETRY: 255,
} as const;

/** ColumnDefinition41 flags. */
export const ColumnFlag = {
  NOT_NULL: 1,
  PRI_KEY: 2,
  UNIQUE_KEY: 4,
  MULTIPLE_KEY: 8,
  BLOB: 16,
  UNSIGNED: 32,
  ZEROFILL: 64,
  BINARY: 128,
  ENUM: 256,
  AUTO_INCREMENT: 512,
  TIMESTAMP: 1024,
  SET: 2048,
} as const;

/** Collation ids. */
export const BINARY_COLLATION = 63;
export const UTF8MB4_BIN = 46;

/** Largest payload of one physical packet; a payload this long continues in the next one. */
export const MAX_CHUNK = 0xffffff;

export const NATIVE_PLUGIN = 'mysql_native_password';
export const SHA2_PLUGIN = 'caching_sha2_password';

/** Default max_allowed_packet: 64 MiB. */
export const DEFAULT_MAX_ALLOWED_PACKET = 64 * 1024 * 1024;
