/**
 * Hands the system variables' value kinds down to sql/expr, which types `@@x` in result metadata
 * (LONGLONG for int/bool, DOUBLE for double, text otherwise) without importing this layer.
 */
import { declareSystemVariableKinds, type SystemVariableKind } from '../expr/index.js';
import { canonicalVariableName, type VarDef, type VarKind } from './system-variables.js';

function resultKind(kind: VarKind): SystemVariableKind {
  if (kind === 'int' || kind === 'bool' || kind === 'double') return kind;
  return 'text';
}

/** Declares the kinds of `defs` (keyed by lower-case name) to the expression layer. */
export function declareVariableKinds(defs: ReadonlyMap<string, VarDef>): void {
  declareSystemVariableKinds((name) => {
    const d = defs.get(canonicalVariableName(name));
    return d === undefined ? undefined : resultKind(d.kind);
  });
}
