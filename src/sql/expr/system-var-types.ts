/**
 * Result types of `@@variables` for metadata: MySQL reports integer and boolean system variables
 * as LONGLONG, floating ones as DOUBLE and the rest as VAR_STRING with a text collation. User
 * variables (`@x`) are typed as strings here because their type is only known at run time.
 *
 * The variable definitions live in sql/session (above this layer); the session hands their kinds
 * down once through `declareSystemVariableKinds`. The fixed list below only covers names the
 * session answers without a definition (and callers that never declared any, e.g. unit tests).
 */
import type { VarScope } from '../parse/ast.js';
import type { ColumnType } from '../../types/index.js';
import { bigintType, doubleType, varcharType } from './result-types.js';

/** How a system variable's value is typed; every other definition kind is text. */
export type SystemVariableKind = 'int' | 'bool' | 'double' | 'text';

/** Kind of a variable by name (any case, aliases resolved), or undefined when unknown. */
export type SystemVariableKindLookup = (name: string) => SystemVariableKind | undefined;

const NUMERIC_SYSTEM_VARIABLES: ReadonlySet<string> = new Set([
  'auto_increment_increment', 'auto_increment_offset', 'autocommit', 'big_tables', 'bulk_insert_buffer_size',
  'connect_timeout', 'default_week_format', 'div_precision_increment', 'error_count', 'explicit_defaults_for_timestamp',
  'foreign_key_checks', 'group_concat_max_len', 'identity', 'innodb_lock_wait_timeout', 'interactive_timeout',
  'last_insert_id', 'lock_wait_timeout', 'lower_case_table_names', 'max_allowed_packet', 'max_connections',
  'max_execution_time', 'max_heap_table_size', 'max_join_size', 'max_sort_length', 'net_buffer_length',
  'net_read_timeout', 'net_retry_count', 'net_write_timeout', 'port', 'query_cache_size', 'query_cache_type',
  'read_only', 'server_id', 'sort_buffer_size', 'sql_auto_is_null', 'sql_big_selects', 'sql_log_bin',
  'sql_notes', 'sql_quote_show_create', 'sql_safe_updates', 'sql_select_limit', 'sql_warnings', 'super_read_only',
  'table_open_cache', 'thread_cache_size', 'tmp_table_size', 'transaction_read_only', 'tx_read_only',
  'unique_checks', 'wait_timeout', 'warning_count', 'lc_messages_dir_length', 'timestamp', 'insert_id',
  'innodb_autoinc_lock_mode', 'max_prepared_stmt_count', 'performance_schema', 'transaction_prealloc_size',
]);

let declared: SystemVariableKindLookup = () => undefined;

/** Installs the session's variable definitions (called by the engine; the kinds are static). */
export function declareSystemVariableKinds(lookup: SystemVariableKindLookup): void {
  declared = lookup;
}

export function systemVariableType(scope: VarScope, name: string): ColumnType {
  if (scope === 'user') return varcharType(255);
  const kind = declared(name) ?? (NUMERIC_SYSTEM_VARIABLES.has(name.toLowerCase()) ? 'int' : 'text');
  if (kind === 'int' || kind === 'bool') return bigintType(21);
  if (kind === 'double') return doubleType();
  return varcharType(1024);
}
