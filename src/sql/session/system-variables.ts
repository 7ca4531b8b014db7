/**
 * The system variables the server answers (SELECT @@x, SHOW VARIABLES, SET), with MySQL 8
 * compatible defaults (see reference/mysql-protocol.md §4.11). Integer and boolean variables
 * hold bigint (booleans 0n/1n, shown ON/OFF by SHOW VARIABLES), the rest strings; a few may
 * be NULL. Variables computed from session state (warning_count, last_insert_id ...) are
 * declared here as 'session'/'readOnly' and answered by the session itself.
 */
import type { Value } from '../../types/index.js';
import { EXTRA_VARIABLES } from './system-variables-extra.js';

export type VarKind =
  | 'int'
  | 'double'
  | 'bool'
  | 'string'
  | 'isolation'
  | 'sqlMode'
  | 'charset'
  | 'collation'
  | 'timeZone'
  | 'enum';

/** Where a variable lives: both scopes, only GLOBAL, or only SESSION. */
export type VarScopeKind = 'both' | 'global' | 'session';

export interface VarDef {
  readonly name: string;
  readonly kind: VarKind;
  readonly scope: VarScopeKind;
  readonly readOnly: boolean;
  readonly nullable: boolean;
  readonly initial: Value;
  /** Allowed values of an 'enum' variable, upper-case. */
  readonly values?: readonly string[];
}

export const DEFAULT_SQL_MODE =
  'ONLY_FULL_GROUP_BY,STRICT_TRANS_TABLES,NO_ZERO_IN_DATE,NO_ZERO_DATE,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';

export const MAX_UINT64 = 18446744073709551615n;

/** Names that read and write another variable. */
export const VARIABLE_ALIASES: ReadonlyMap<string, string> = new Map([
  ['tx_isolation', 'transaction_isolation'],
  ['tx_read_only', 'transaction_read_only'],
  ['identity', 'last_insert_id'],
]);

/** Answered from session state rather than stored. */
export const COMPUTED_VARIABLES: ReadonlySet<string> = new Set(['warning_count', 'error_count', 'last_insert_id']);

export interface ServerInfo {
  readonly serverVersion: string;
  readonly hostname: string;
  readonly port: number;
  /** TLS configured (`--tls-cert`): have_ssl / have_openssl YES, else DISABLED. */
  readonly tls?: boolean;
  /** `--require-secure-transport`: initial @@global.require_secure_transport. */
  readonly requireSecureTransport?: boolean;
}

type Flags = { readonly ro?: boolean; readonly nullable?: boolean; readonly values?: readonly string[] };

function def(name: string, kind: VarKind, scope: VarScopeKind, initial: Value, flags: Flags = {}): VarDef {
  const base = { name, kind, scope, initial, readOnly: flags.ro ?? false, nullable: flags.nullable ?? false };
  return flags.values === undefined ? base : { ...base, values: flags.values };
}

const RO = { ro: true } as const;

/** Every known variable, keyed by lower-case name. */
export function buildVariableDefs(info: ServerInfo): ReadonlyMap<string, VarDef> {
  const defs: VarDef[] = [
    def('auto_increment_increment', 'int', 'both', 1n),
    def('auto_increment_offset', 'int', 'both', 1n),
    def('autocommit', 'bool', 'both', 1n),
    def('big_tables', 'bool', 'both', 0n),
    def('character_set_client', 'charset', 'both', 'utf8mb4'),
    def('character_set_connection', 'charset', 'both', 'utf8mb4'),
    def('character_set_database', 'charset', 'both', 'utf8mb4'),
    def('character_set_filesystem', 'charset', 'both', 'binary'),
    def('character_set_results', 'charset', 'both', 'utf8mb4', { nullable: true }),
    def('character_set_server', 'charset', 'both', 'utf8mb4'),
    def('character_set_system', 'string', 'global', 'utf8mb3', RO),
    def('collation_connection', 'collation', 'both', 'utf8mb4_0900_ai_ci'),
    def('collation_database', 'collation', 'both', 'utf8mb4_0900_ai_ci'),
    def('collation_server', 'collation', 'both', 'utf8mb4_0900_ai_ci'),
    def('completion_type', 'enum', 'both', 'NO_CHAIN', { values: ['NO_CHAIN', 'CHAIN', 'RELEASE'] }),
    def('connect_timeout', 'int', 'global', 10n),
    def('cte_max_recursion_depth', 'int', 'both', 1000n),
    def('default_authentication_plugin', 'string', 'global', 'mysql_native_password', RO),
    def('default_collation_for_utf8mb4', 'collation', 'both', 'utf8mb4_0900_ai_ci'),
    def('default_storage_engine', 'string', 'both', 'InnoDB'),
    def('default_tmp_storage_engine', 'string', 'both', 'InnoDB'),
    def('default_week_format', 'int', 'both', 0n),
    def('div_precision_increment', 'int', 'both', 4n),
    def('error_count', 'int', 'session', 0n, RO),
    def('event_scheduler', 'string', 'global', 'OFF'),
    def('explicit_defaults_for_timestamp', 'bool', 'both', 1n),
    def('foreign_key_checks', 'bool', 'both', 1n),
    def('group_concat_max_len', 'int', 'both', 1024n),
    def('have_query_cache', 'string', 'global', 'NO', RO),
    def('have_openssl', 'string', 'global', info.tls === true ? 'YES' : 'DISABLED', RO),
    def('have_ssl', 'string', 'global', info.tls === true ? 'YES' : 'DISABLED', RO),
    def('hostname', 'string', 'global', info.hostname, RO),
    def('information_schema_stats_expiry', 'int', 'both', 86400n),
    def('init_connect', 'string', 'global', ''),
    def('innodb_buffer_pool_size', 'int', 'global', 134217728n),
    def('innodb_lock_wait_timeout', 'int', 'both', 50n),
    def('innodb_strict_mode', 'bool', 'both', 1n),
    def('interactive_timeout', 'int', 'both', 28800n),
    def('join_buffer_size', 'int', 'both', 262144n),
    def('last_insert_id', 'int', 'session', 0n),
    def('lc_messages', 'string', 'both', 'en_US'),
    def('lc_time_names', 'string', 'both', 'en_US'),
    def('license', 'string', 'global', 'Apache-2.0', RO),
    def('local_infile', 'bool', 'global', 0n),
    def('lock_wait_timeout', 'int', 'both', 31536000n),
    def('log_bin', 'bool', 'global', 0n, RO),
    def('long_query_time', 'double', 'both', 10),
    def('lower_case_table_names', 'int', 'global', 0n, RO),
    def('max_allowed_packet', 'int', 'both', 67108864n),
    def('max_connections', 'int', 'global', 151n),
    def('max_error_count', 'int', 'both', 1024n),
    def('max_execution_time', 'int', 'both', 0n),
    def('max_heap_table_size', 'int', 'both', 16777216n),
    def('max_join_size', 'int', 'both', MAX_UINT64),
    def('max_sort_length', 'int', 'both', 1024n),
    def('max_user_connections', 'int', 'both', 0n),
    def('net_buffer_length', 'int', 'both', 16384n),
    def('net_read_timeout', 'int', 'both', 30n),
    def('net_write_timeout', 'int', 'both', 60n),
    def('performance_schema', 'bool', 'global', 0n, RO),
    def('port', 'int', 'global', BigInt(info.port), RO),
    def('protocol_version', 'int', 'global', 10n, RO),
    def('read_only', 'bool', 'global', 0n),
    def('require_secure_transport', 'bool', 'global', info.requireSecureTransport === true ? 1n : 0n),
    def('server_id', 'int', 'global', 1n),
    // ShaleDB's own: a transaction whose buffered writes exceed this many bytes fails the statement that crosses it.
    def('shale_txn_max_bytes', 'int', 'both', 268435456n),
    def('skip_name_resolve', 'bool', 'global', 1n, RO),
    def('socket', 'string', 'global', null, { ro: true, nullable: true }),
    def('sort_buffer_size', 'int', 'both', 262144n),
    def('sql_auto_is_null', 'bool', 'both', 0n),
    def('sql_big_selects', 'bool', 'both', 1n),
    def('sql_buffer_result', 'bool', 'both', 0n),
    def('sql_log_bin', 'bool', 'session', 1n),
    def('sql_mode', 'sqlMode', 'both', DEFAULT_SQL_MODE),
    def('sql_notes', 'bool', 'both', 1n),
    def('sql_quote_show_create', 'bool', 'both', 1n),
    def('sql_require_primary_key', 'bool', 'both', 0n),
    def('sql_safe_updates', 'bool', 'both', 0n),
    def('sql_select_limit', 'int', 'both', MAX_UINT64),
    def('sql_warnings', 'bool', 'both', 0n),
    def('system_time_zone', 'string', 'global', 'UTC', RO),
    def('time_zone', 'timeZone', 'both', 'SYSTEM'),
    def('tls_version', 'string', 'global', info.tls === true ? 'TLSv1.2,TLSv1.3' : '', RO),
    def('tmp_table_size', 'int', 'both', 16777216n),
    def('transaction_isolation', 'isolation', 'both', 'REPEATABLE-READ'),
    def('transaction_read_only', 'bool', 'both', 0n),
    def('unique_checks', 'bool', 'both', 1n),
    def('updatable_views_with_limit', 'enum', 'both', 'YES', { values: ['YES', 'NO'] }),
    def('version', 'string', 'global', info.serverVersion, RO),
    def('version_comment', 'string', 'global', 'ShaleDB (MySQL-compatible)', RO),
    def('version_compile_machine', 'string', 'global', process.arch === 'arm64' ? 'aarch64' : 'x86_64', RO),
    def('version_compile_os', 'string', 'global', 'Linux', RO),
    def('wait_timeout', 'int', 'both', 28800n),
    def('warning_count', 'int', 'session', 0n, RO),
  ];
  for (const [name, kind, scope, initial, flags] of EXTRA_VARIABLES) defs.push(def(name, kind, scope, initial, flags));
  return new Map(defs.map((d) => [d.name, d]));
}

/** Resolves aliases (tx_isolation -> transaction_isolation). */
export function canonicalVariableName(name: string): string {
  const lower = name.toLowerCase();
  return VARIABLE_ALIASES.get(lower) ?? lower;
}

/** SHOW VARIABLES text of a value: booleans ON/OFF, NULL as ''. */
export function displayVariable(d: VarDef, v: Value): string {
  if (v === null) return '';
  if (d.kind === 'bool') return v === 0n ? 'OFF' : 'ON';
  if (d.kind === 'double' && typeof v === 'number') return v.toFixed(6);
  return String(v);
}
