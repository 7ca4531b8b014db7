/**
 * Validation of JSON read from the KV: everything enters as `unknown` and is checked field by
 * field, so a corrupt or foreign meta value fails loudly instead of flowing on half-typed.
 */

export class MetaFormatError extends Error {
  constructor(what: string) {
    super(`corrupt catalog metadata: ${what}`);
    this.name = 'MetaFormatError';
  }
}

export type JsonObject = { readonly [key: string]: unknown };

export function asObject(v: unknown, what: string): JsonObject {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new MetaFormatError(`${what} is not an object`);
  return v as JsonObject;
}

export function asArray(v: unknown, what: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new MetaFormatError(`${what} is not an array`);
  return v;
}

export function str(o: JsonObject, key: string, what: string): string {
  const v = o[key];
  if (typeof v !== 'string') throw new MetaFormatError(`${what}.${key} is not a string`);
  return v;
}

export function int(o: JsonObject, key: string, what: string): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw new MetaFormatError(`${what}.${key} is not an integer`);
  return v;
}

export function bool(o: JsonObject, key: string, what: string): boolean {
  const v = o[key];
  if (typeof v !== 'boolean') throw new MetaFormatError(`${what}.${key} is not a boolean`);
  return v;
}

export function optInt(o: JsonObject, key: string, what: string): number | undefined {
  return o[key] === undefined ? undefined : int(o, key, what);
}

export function optBool(o: JsonObject, key: string, what: string): boolean | undefined {
  return o[key] === undefined ? undefined : bool(o, key, what);
}

export function oneOf<T extends string>(o: JsonObject, key: string, allowed: readonly T[], what: string): T {
  const v = str(o, key, what);
  const found = allowed.find((a) => a === v);
  if (found === undefined) throw new MetaFormatError(`${what}.${key} has unexpected value '${v}'`);
  return found;
}

export function strArray(o: JsonObject, key: string, what: string): string[] {
  return asArray(o[key], `${what}.${key}`).map((v, i) => {
    if (typeof v !== 'string') throw new MetaFormatError(`${what}.${key}[${i}] is not a string`);
    return v;
  });
}

/** Parses JSON text, wrapping syntax errors. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new MetaFormatError(`${what} is not valid JSON`);
  }
}

/** A bigint stored as a JSON number or decimal string. */
export function parseBigIntText(text: string, what: string): bigint {
  if (isPlainDigits(text)) return BigInt(text); // the stored form; read per statement (schema version)
  const t = text.trim().replace(/^"(.*)"$/, '$1');
  if (!/^-?\d+$/.test(t)) throw new MetaFormatError(`${what} is not an integer: ${text.slice(0, 40)}`);
  return BigInt(t);
}

/** 1 to 15 ASCII digits: the usual stored counter, parsed without the regexes of the general path. */
function isPlainDigits(text: string): boolean {
  const n = text.length;
  if (n === 0 || n > 15) return false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
