/**
 * Session variables read on every statement, cached as plain fields: @@autocommit, strict
 * sql_mode and @@time_zone. `refresh()` runs whenever one of them changes.
 */
import type { Value } from '../../types/index.js';
import type { Diagnostics } from './diagnostics.js';
import { displayVariable } from './system-variables.js';
import type { SessionVariables } from './variable-store.js';

export class CachedSettings {
  autocommit = true;
  strict = true;
  timeZone = 'SYSTEM';

  constructor(private readonly variables: SessionVariables) {
    this.refresh();
  }

  refresh(): void {
    this.autocommit = this.variables.peek('autocommit') !== 0n;
    const mode = this.variables.peek('sql_mode');
    this.strict = typeof mode === 'string' && /STRICT_(TRANS|ALL)_TABLES/.test(mode);
    const tz = this.variables.peek('time_zone');
    this.timeZone = typeof tz === 'string' ? tz : 'SYSTEM';
  }
}

/** Session variables whose value is computed from session state, else undefined. */
export function computedVariable(name: string, diagnostics: Diagnostics, lastInsertId: bigint): Value | undefined {
  switch (name) {
    case 'warning_count':
      return BigInt(diagnostics.warningCount());
    case 'error_count':
      return BigInt(diagnostics.errorCount());
    case 'last_insert_id':
      return lastInsertId;
    default:
      return undefined;
  }
}

/** SHOW VARIABLES rows: every variable of the scope with session-computed values filled in. */
export function variableRowsOf(
  variables: SessionVariables,
  global: boolean,
  computed: (name: string) => Value | undefined,
): Array<readonly [string, string]> {
  return variables.entries(global ? 'global' : 'session').map(({ def, value }) => {
    const v = global ? value : computed(def.name) ?? value;
    return [def.name, displayVariable(def, v)] as const;
  });
}
