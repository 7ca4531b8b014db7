/**
 * Errors raised by the codec. Both indicate a bug or corruption (exec casts values before
 * encoding), never a user error, so they are plain Errors, not SqlErrors.
 */
export function corrupt(what: string): Error {
  return new Error(`codec: corrupt data: ${what}`);
}

export function badValue(expected: string, kind: string, v: unknown): Error {
  const got = v === null ? 'null' : v instanceof Uint8Array ? 'Uint8Array' : typeof v === 'object' ? (v.constructor?.name ?? 'object') : typeof v;
  return new Error(`codec: column type ${kind} expects ${expected}, got ${got}`);
}
