/**
 * Global and session values of system variables. A new session copies the global values (so
 * SET GLOBAL is seen by later sessions, not by open ones); GLOBAL-only variables are always
 * read from the engine-wide map.
 */
import { SqlError } from '../../errors/index.js';
import type { Value } from '../../types/index.js';
import { normalizeVariableValue } from './variable-values.js';
import { canonicalVariableName, type VarDef } from './system-variables.js';

export type ReadScope = 'session' | 'global' | 'default';
export type WriteScope = 'session' | 'global';

/**
 * A new connection's own initial values: the character set and collation of its handshake, and
 * for interactive clients interactive_timeout as wait_timeout.
 */
export function connectionVariables(collation: { readonly charset: string; readonly name: string }, interactive: boolean, globals: GlobalVariables): Map<string, Value> {
  const initial = new Map<string, Value>([
    ['character_set_client', collation.charset],
    ['character_set_connection', collation.charset],
    ['character_set_results', collation.charset],
    ['collation_connection', collation.name],
  ]);
  if (interactive) initial.set('wait_timeout', globals.values.get('interactive_timeout') ?? 28800n);
  return initial;
}

export class GlobalVariables {
  readonly values = new Map<string, Value>();

  constructor(readonly defs: ReadonlyMap<string, VarDef>) {
    for (const d of defs.values()) this.values.set(d.name, d.initial);
  }

  definition(name: string): VarDef {
    const d = this.defs.get(canonicalVariableName(name));
    if (d === undefined) throw SqlError.of('ER_UNKNOWN_SYSTEM_VARIABLE', name.toLowerCase());
    return d;
  }
}

export class SessionVariables {
  private values = new Map<string, Value>();

  constructor(
    private readonly globals: GlobalVariables,
    private readonly initial: ReadonlyMap<string, Value>,
  ) {
    this.reset();
  }

  /** Back to the current global values plus the connection's own initial values. */
  reset(): void {
    const values = new Map<string, Value>();
    for (const d of this.globals.defs.values()) {
      if (d.scope !== 'global') values.set(d.name, this.globals.values.get(d.name) ?? d.initial);
    }
    for (const [name, v] of this.initial) values.set(name, v);
    this.values = values;
  }

  definition(name: string): VarDef {
    return this.globals.definition(name);
  }

  /** Fast read of a known session variable by canonical name (no checks). */
  peek(name: string): Value {
    return this.values.get(name) ?? null;
  }

  read(scope: ReadScope, name: string): Value {
    const d = this.definition(name);
    if (scope === 'global') {
      if (d.scope === 'session') throw SqlError.of('ER_INCORRECT_GLOBAL_LOCAL_VAR', d.name, 'SESSION');
      return this.globals.values.get(d.name) ?? null;
    }
    if (d.scope === 'global') {
      if (scope === 'session') throw SqlError.of('ER_INCORRECT_GLOBAL_LOCAL_VAR', d.name, 'GLOBAL');
      return this.globals.values.get(d.name) ?? null;
    }
    return this.values.get(d.name) ?? null;
  }

  /** SET; `value` undefined means DEFAULT. Returns the canonical name and the stored value. */
  write(scope: WriteScope, name: string, value: Value | undefined): { name: string; value: Value } {
    const d = this.definition(name);
    if (d.readOnly) throw SqlError.of('ER_INCORRECT_GLOBAL_LOCAL_VAR', d.name, 'read only');
    if (scope === 'session' && d.scope === 'global') throw SqlError.of('ER_GLOBAL_VARIABLE', d.name);
    if (scope === 'global' && d.scope === 'session') throw SqlError.of('ER_LOCAL_VARIABLE', d.name);
    const v = value === undefined ? this.defaultFor(scope, d) : normalizeVariableValue(d, value);
    if (d.name === 'require_secure_transport' && v === 1n && this.globals.values.get('have_ssl') !== 'YES') {
      throw SqlError.of('ER_NO_SECURE_TRANSPORTS_CONFIGURED');
    }
    if (scope === 'global') this.globals.values.set(d.name, v);
    else this.values.set(d.name, v);
    return { name: d.name, value: v };
  }

  private defaultFor(scope: WriteScope, d: VarDef): Value {
    if (scope === 'global') return d.initial;
    return this.globals.values.get(d.name) ?? d.initial;
  }

  /** Session-visible values for SHOW VARIABLES (GLOBAL-only ones from the engine). */
  entries(scope: 'session' | 'global'): Array<{ def: VarDef; value: Value }> {
    const out: Array<{ def: VarDef; value: Value }> = [];
    for (const d of this.globals.defs.values()) {
      if (scope === 'global' && d.scope === 'session') continue;
      const fromGlobal = scope === 'global' || d.scope === 'global';
      out.push({ def: d, value: (fromGlobal ? this.globals.values.get(d.name) : this.values.get(d.name)) ?? null });
    }
    return out;
  }
}
