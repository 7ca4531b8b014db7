/** Narrowing helpers for node-sql-parser's untyped output (it enters as `unknown`). */

export type Obj = Readonly<Record<string, unknown>>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function obj(o: Obj, key: string): Obj | undefined {
  const v = o[key];
  return isObj(v) ? v : undefined;
}

export function arr(o: Obj, key: string): readonly unknown[] {
  const v = o[key];
  return Array.isArray(v) ? (v as readonly unknown[]) : [];
}

export function str(o: Obj, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

export function typeOf(o: Obj): string {
  return str(o, 'type') ?? '';
}

/** Objects of an array, skipping anything else. */
export function objs(list: readonly unknown[]): Obj[] {
  return list.filter(isObj);
}
