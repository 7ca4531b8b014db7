/**
 * MySQL JSON path expressions: `$`, `.key`, `."quoted key"`, `.*`, `[n]`, `[last]`,
 * `[last-n]`, `[m to n]`, `[*]` and `**` (not at the end). Parse errors are 3143 with MySQL's
 * "around character position" (an offset just past the offending character).
 *
 * Evaluation follows MySQL's auto-wrapping: `[0]` / `[last]` on a non-array selects the value
 * itself. Matches of paths with `**` are de-duplicated by location.
 */
import { SqlError } from '../../../errors/index.js';
import { JsonSyntaxError, parseJson } from './json-parse.js';
import { sortedKeys, type JsonValue } from './json-value.js';

/** An array position: `n`, or `last - n` when `fromEnd`. */
export interface ArrayIndex {
  readonly fromEnd: boolean;
  readonly n: number;
}

export type PathLeg =
  | { readonly kind: 'member'; readonly key: string }
  | { readonly kind: 'memberWild' }
  | { readonly kind: 'cell'; readonly index: ArrayIndex }
  | { readonly kind: 'range'; readonly from: ArrayIndex; readonly to: ArrayIndex }
  | { readonly kind: 'cellWild' }
  | { readonly kind: 'ellipsis' };

export interface JsonPath {
  readonly legs: readonly PathLeg[];
  /** Contains `*`, `**` or a range (functions that edit refuse these: 3149). */
  readonly wild: boolean;
}

/** Where a matched value sits: its container and key/index (null parent: the document root). */
export interface JsonLocation {
  readonly value: JsonValue;
  readonly parent: JsonValue[] | Map<string, JsonValue> | null;
  readonly key: string | number;
}

export function parsePath(text: string): JsonPath {
  return new PathParser(text).path();
}

class PathParser {
  private i = 0;
  constructor(private readonly s: string) {}

  private fail(at = this.i + 1): never {
    throw SqlError.of('ER_INVALID_JSON_PATH', Math.min(at, this.s.length));
  }

  private ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i] as string)) this.i++;
  }

  path(): JsonPath {
    this.ws();
    if (this.s[this.i] !== '$') this.fail();
    this.i++;
    const legs: PathLeg[] = [];
    for (;;) {
      this.ws();
      if (this.i >= this.s.length) break;
      legs.push(this.leg());
    }
    if (legs[legs.length - 1]?.kind === 'ellipsis') this.fail(this.s.length);
    const wild = legs.some((l) => l.kind === 'memberWild' || l.kind === 'cellWild' || l.kind === 'ellipsis' || l.kind === 'range');
    return { legs, wild };
  }

  private leg(): PathLeg {
    const c = this.s[this.i];
    if (c === '.') {
      this.i++;
      this.ws();
      return this.member();
    }
    if (c === '[') {
      this.i++;
      return this.cell();
    }
    if (c === '*' && this.s[this.i + 1] === '*') {
      this.i += 2;
      return { kind: 'ellipsis' };
    }
    return this.fail();
  }

  private member(): PathLeg {
    const c = this.s[this.i];
    if (c === undefined) this.fail(this.i);
    if (c === '*') {
      this.i++;
      return { kind: 'memberWild' };
    }
    if (c === '"') return { kind: 'member', key: this.quotedKey() };
    const start = this.i;
    while (this.i < this.s.length && !/[\s.[*]/.test(this.s[this.i] as string)) this.i++;
    const key = this.s.slice(start, this.i);
    if (!/^[\p{L}\p{Nl}$_][\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}$_\u200c\u200d]*$/u.test(key)) this.fail(this.i);
    return { kind: 'member', key };
  }

  private quotedKey(): string {
    const start = this.i;
    let j = this.i + 1;
    while (j < this.s.length && this.s[j] !== '"') j += this.s[j] === '\\' ? 2 : 1;
    if (j >= this.s.length) this.fail(this.s.length);
    this.i = j + 1;
    try {
      const key = parseJson(this.s.slice(start, this.i));
      if (typeof key === 'string') return key;
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
    }
    return this.fail(this.i);
  }

  private cell(): PathLeg {
    this.ws();
    if (this.s[this.i] === '*') {
      this.i++;
      this.close();
      return { kind: 'cellWild' };
    }
    const from = this.index();
    this.ws();
    if (this.s.startsWith('to', this.i) && /\s/.test(this.s[this.i + 2] ?? '') && /\s/.test(this.s[this.i - 1] ?? '')) {
      this.i += 2;
      this.ws();
      const to = this.index();
      this.close();
      if (!from.fromEnd && !to.fromEnd && to.n < from.n) this.fail(this.i);
      return { kind: 'range', from, to };
    }
    this.close();
    return { kind: 'cell', index: from };
  }

  private close(): void {
    this.ws();
    if (this.s[this.i] !== ']') this.fail();
    this.i++;
  }

  private index(): ArrayIndex {
    if (this.s.startsWith('last', this.i)) {
      this.i += 4;
      this.ws();
      if (this.s[this.i] !== '-') return { fromEnd: true, n: 0 };
      this.i++;
      this.ws();
      return { fromEnd: true, n: this.int() };
    }
    return { fromEnd: false, n: this.int() };
  }

  private int(): number {
    const m = /^\d+/.exec(this.s.slice(this.i));
    if (m === null) return this.fail();
    this.i += m[0].length;
    const n = Number(m[0]);
    if (n > 0xffffffff) this.fail(this.i);
    return n;
  }
}

/** The position an ArrayIndex names in an array of `length` (may be out of range: < 0 or >= length). */
export function resolveIndex(ix: ArrayIndex, length: number): number {
  return ix.fromEnd ? length - 1 - ix.n : ix.n;
}

/** Every value the path selects, in document order (MySQL's order for wildcard matches). */
export function findAll(doc: JsonValue, path: JsonPath): JsonLocation[] {
  const out: JsonLocation[] = [];
  const seen = new Map<unknown, Set<string | number>>();
  const emit = (loc: JsonLocation): void => {
    if (path.wild) {
      const keys = seen.get(loc.parent) ?? new Set<string | number>();
      if (keys.has(loc.key)) return;
      keys.add(loc.key);
      seen.set(loc.parent, keys);
    }
    out.push(loc);
  };
  seek({ value: doc, parent: null, key: 0 }, path.legs, 0, emit);
  return out;
}

function children(v: JsonValue): JsonLocation[] {
  if (Array.isArray(v)) return v.map((x, i) => ({ value: x, parent: v, key: i }));
  if (v instanceof Map) return sortedKeys(v).map((k) => ({ value: v.get(k) as JsonValue, parent: v, key: k }));
  return [];
}

function seek(loc: JsonLocation, legs: readonly PathLeg[], i: number, emit: (l: JsonLocation) => void): void {
  const leg = legs[i];
  if (leg === undefined) {
    emit(loc);
    return;
  }
  const v = loc.value;
  switch (leg.kind) {
    case 'member':
      if (v instanceof Map && v.has(leg.key)) seek({ value: v.get(leg.key) as JsonValue, parent: v, key: leg.key }, legs, i + 1, emit);
      return;
    case 'memberWild':
      if (v instanceof Map) for (const c of children(v)) seek(c, legs, i + 1, emit);
      return;
    case 'cellWild':
      if (Array.isArray(v)) for (const c of children(v)) seek(c, legs, i + 1, emit);
      return;
    case 'cell': {
      if (!Array.isArray(v)) {
        if (resolveIndex(leg.index, 1) === 0) seek(loc, legs, i + 1, emit);
        return;
      }
      const at = resolveIndex(leg.index, v.length);
      if (at >= 0 && at < v.length) seek({ value: v[at] as JsonValue, parent: v, key: at }, legs, i + 1, emit);
      return;
    }
    case 'range': {
      const arr = Array.isArray(v) ? v : null;
      const len = arr === null ? 1 : arr.length;
      const from = Math.max(0, resolveIndex(leg.from, len));
      const to = Math.min(len - 1, resolveIndex(leg.to, len));
      for (let k = from; k <= to; k++) seek(arr === null ? loc : { value: arr[k] as JsonValue, parent: arr, key: k }, legs, i + 1, emit);
      return;
    }
    case 'ellipsis':
      seek(loc, legs, i + 1, emit);
      for (const c of children(v)) seek(c, legs, i, emit);
      return;
  }
}
