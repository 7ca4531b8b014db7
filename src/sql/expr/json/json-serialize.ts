/**
 * JsonValue -> MySQL 8.0's normalized JSON text: `{"a": 1, "b": [1, 2]}` (", " and ": "
 * separators, object keys by length then bytes), strings with MySQL's escapes (\" \\ \b \f \n
 * \r \t, other control characters as \u00xx, everything else literal), doubles in their
 * shortest form with `.0` added to integral values (`1.0`, `1e20`), decimals as written.
 */
import { Decimal } from '../../../types/index.js';
import { formatDouble } from '../value-to-string.js';
import { sortedKeys, type JsonValue } from './json-value.js';

export function serializeJson(v: JsonValue): string {
  const out: string[] = [];
  write(v, out);
  return out.join('');
}

function write(v: JsonValue, out: string[]): void {
  if (v === null) out.push('null');
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (typeof v === 'bigint') out.push(v.toString());
  else if (typeof v === 'number') out.push(jsonDouble(v));
  else if (v instanceof Decimal) out.push(v.toFixed());
  else if (typeof v === 'string') out.push(quoteJsonString(v));
  else if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(', ');
      write(v[i] as JsonValue, out);
    }
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const k of sortedKeys(v)) {
      if (!first) out.push(', ');
      first = false;
      out.push(quoteJsonString(k), ': ');
      write(v.get(k) as JsonValue, out);
    }
    out.push('}');
  }
}

/** A double as MySQL's JSON prints it: integral values keep a `.0` so they read back as doubles. */
export function jsonDouble(x: number): string {
  const s = Object.is(x, -0) ? '-0' : formatDouble(x);
  return /[.eE]/.test(s) || !/^-?\d+$/.test(s) ? s : `${s}.0`;
}

const SHORT_ESCAPES: Readonly<Record<number, string>> = { 0x22: '\\"', 0x5c: '\\\\', 0x08: '\\b', 0x0c: '\\f', 0x0a: '\\n', 0x0d: '\\r', 0x09: '\\t' };

/** A JSON string literal as MySQL writes it (JSON_QUOTE and every string inside a document). */
export function quoteJsonString(s: string): string {
  let out = '"';
  let run = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(run, i);
    out += SHORT_ESCAPES[c] ?? `\\u00${c.toString(16).padStart(2, '0')}`;
    run = i + 1;
  }
  return out + s.slice(run) + '"';
}

/** JSON_PRETTY: one member / element per line, two-space indentation, `[]` / `{}` when empty. */
export function prettyJson(v: JsonValue, indent = ''): string {
  const inner = indent + '  ';
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => inner + prettyJson(x, inner)).join(',\n')}\n${indent}]`;
  }
  if (v instanceof Map) {
    if (v.size === 0) return '{}';
    const lines = sortedKeys(v).map((k) => `${inner}${quoteJsonString(k)}: ${prettyJson(v.get(k) as JsonValue, inner)}`);
    return `{\n${lines.join(',\n')}\n${indent}}`;
  }
  return serializeJson(v);
}
