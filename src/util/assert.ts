/**
 * Guards states that should be impossible (a closed transaction used, an iterator used after
 * close). Never used for user errors: those are SqlErrors.
 */
export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/** Exhaustiveness check for `switch` over a `kind` union. */
export function assertNever(x: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(x)}`);
}
