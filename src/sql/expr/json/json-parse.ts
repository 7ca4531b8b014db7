/**
 * JSON text -> JsonValue, following the rapidjson reader MySQL 8.0 uses: the same grammar
 * (RFC 8259, no comments), the same error texts and the same error offsets (in UTF-8 bytes),
 * so `Invalid JSON text: "Missing a comma or ']' after an array element." at position 3`
 * matches MySQL. Integers become bigint when they fit in int64/uint64, else a double; numbers
 * with a fraction or exponent are doubles. Later duplicate keys replace earlier ones (8.0.3+).
 * Nesting deeper than 100 is ER_JSON_DOCUMENT_TOO_DEEP.
 */
import { SqlError } from '../../../errors/index.js';
import { INT64_MAX, UINT64_MAX, utf8Length, type JsonObject, type JsonValue } from './json-value.js';

/** A syntax error: rapidjson's message and the byte offset where it was found. */
export class JsonSyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly position: number,
  ) {
    super(`${reason} at position ${position}`);
    this.name = 'JsonSyntaxError';
  }
}

export const MAX_JSON_DEPTH = 100;

/** Parses a whole document. Throws JsonSyntaxError, or SqlError ER_JSON_DOCUMENT_TOO_DEEP. */
export function parseJson(text: string): JsonValue {
  return new Reader(text).document();
}

/** True when `text` is one valid JSON document (JSON_VALID). */
export function isValidJson(text: string): boolean {
  try {
    parseJson(text);
    return true;
  } catch (e) {
    if (e instanceof JsonSyntaxError || e instanceof SqlError) return false;
    throw e;
  }
}

const ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

class Reader {
  private i = 0;
  private depth = 0;
  constructor(private readonly s: string) {}

  document(): JsonValue {
    this.ws();
    if (this.i >= this.s.length) this.fail('The document is empty.');
    const v = this.value();
    this.ws();
    if (this.i < this.s.length) this.fail('The document root must not be followed by other values.');
    return v;
  }

  private fail(reason: string, at = this.i): never {
    throw new JsonSyntaxError(reason, utf8Length(this.s.slice(0, at)));
  }

  private ws(): void {
    const s = this.s;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.i++;
    }
  }

  private value(): JsonValue {
    switch (this.s[this.i]) {
      case 'n':
        return this.literal('null', null);
      case 't':
        return this.literal('true', true);
      case 'f':
        return this.literal('false', false);
      case '"':
        return this.string();
      case '{':
        return this.nested(() => this.object());
      case '[':
        return this.nested(() => this.array());
      default:
        return this.number();
    }
  }

  private nested(read: () => JsonValue): JsonValue {
    if (++this.depth > MAX_JSON_DEPTH) throw SqlError.of('ER_JSON_DOCUMENT_TOO_DEEP');
    const v = read();
    this.depth--;
    return v;
  }

  private literal(word: string, v: JsonValue): JsonValue {
    this.i++;
    for (let k = 1; k < word.length; k++) {
      if (this.s[this.i] !== word[k]) this.fail('Invalid value.');
      this.i++;
    }
    return v;
  }

  private object(): JsonObject {
    const o: JsonObject = new Map();
    this.i++;
    this.ws();
    if (this.s[this.i] === '}') {
      this.i++;
      return o;
    }
    for (;;) {
      if (this.s[this.i] !== '"') this.fail('Missing a name for object member.');
      const key = this.string();
      this.ws();
      if (this.s[this.i] !== ':') this.fail('Missing a colon after a name of object member.');
      this.i++;
      this.ws();
      const v = this.value();
      o.delete(key);
      o.set(key, v);
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        this.ws();
      } else if (c === '}') {
        this.i++;
        return o;
      } else this.fail("Missing a comma or '}' after an object member.");
    }
  }

  private array(): JsonValue[] {
    const a: JsonValue[] = [];
    this.i++;
    this.ws();
    if (this.s[this.i] === ']') {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value());
      this.ws();
      const c = this.s[this.i];
      if (c === ',') {
        this.i++;
        this.ws();
      } else if (c === ']') {
        this.i++;
        return a;
      } else this.fail("Missing a comma or ']' after an array element.");
    }
  }

  private string(): string {
    const s = this.s;
    this.i++;
    let out = '';
    let run = this.i;
    for (;;) {
      if (this.i >= s.length) this.fail('Missing a closing quotation mark in string.');
      const c = s.charCodeAt(this.i);
      if (c === 0x22) {
        out += s.slice(run, this.i);
        this.i++;
        return out;
      }
      if (c === 0x5c) {
        out += s.slice(run, this.i);
        out += this.escape();
        run = this.i;
      } else if (c < 0x20) {
        this.fail('Invalid encoding in string.');
      } else this.i++;
    }
  }

  private escape(): string {
    const at = this.i;
    this.i++;
    const e = this.s[this.i] ?? '';
    const simple = ESCAPES[e];
    if (simple !== undefined) {
      this.i++;
      return simple;
    }
    if (e !== 'u') this.fail('Invalid escape character in string.', at);
    this.i++;
    const cp = this.hex4(at);
    if (cp >= 0xd800 && cp <= 0xdbff) {
      if (this.s[this.i] !== '\\' || this.s[this.i + 1] !== 'u') this.fail('The surrogate pair in string is invalid.', at);
      this.i += 2;
      const low = this.hex4(at);
      if (low < 0xdc00 || low > 0xdfff) this.fail('The surrogate pair in string is invalid.', at);
      return String.fromCharCode(cp, low);
    }
    if (cp >= 0xdc00 && cp <= 0xdfff) this.fail('The surrogate pair in string is invalid.', at);
    return String.fromCharCode(cp);
  }

  private hex4(at: number): number {
    const h = this.s.slice(this.i, this.i + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(h)) this.fail('Incorrect hex digit after \\u escape in string.', at);
    this.i += 4;
    return parseInt(h, 16);
  }

  private number(): JsonValue {
    const s = this.s;
    const start = this.i;
    if (s[this.i] === '-') this.i++;
    const digits = (): void => {
      while (this.i < s.length && s.charCodeAt(this.i) >= 0x30 && s.charCodeAt(this.i) <= 0x39) this.i++;
    };
    const c = s[this.i];
    if (c === '0') this.i++;
    else if (c !== undefined && c >= '1' && c <= '9') digits();
    else this.fail('Invalid value.');
    let real = false;
    if (s[this.i] === '.') {
      real = true;
      this.i++;
      const d = this.i;
      digits();
      if (this.i === d) this.fail('Miss fraction part in number.');
    }
    if (s[this.i] === 'e' || s[this.i] === 'E') {
      real = true;
      this.i++;
      if (s[this.i] === '+' || s[this.i] === '-') this.i++;
      const d = this.i;
      digits();
      if (this.i === d) this.fail('Miss exponent in number.');
    }
    const text = s.slice(start, this.i);
    if (!real) {
      const n = BigInt(text);
      if (n >= -INT64_MAX - 1n && n <= UINT64_MAX) return n;
    }
    const x = Number(text);
    if (!Number.isFinite(x)) this.fail('Number too big to be stored in double.', start);
    return x;
  }
}
