/**
 * LIKE patterns: `%` any run, `_` one character, the escape character (default `\`) makes the
 * next character literal. Compiled to an anchored RegExp; a trailing lone escape matches itself
 * as MySQL does. Under a `_ci` collation the subject and the pattern's literal characters are
 * folded by the collation's `likeFold` (one character stays one character, so `_` still
 * matches exactly one). Trailing spaces are significant, as in MySQL.
 */

const REGEX_META = /[.*+?^${}()|[\]\\/]/g;

function literal(ch: string): string {
  return ch.replace(REGEX_META, '\\$&');
}

const identity = (s: string): string => s;

export function compileLike(pattern: string, escape: string, fold: (s: string) => string = identity): RegExp {
  let src = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === escape && escape !== '' && i + 1 < chars.length) {
      src += literal(fold(chars[++i] as string));
    } else if (ch === '%') {
      src += '.*';
    } else if (ch === '_') {
      src += '.';
    } else {
      src += literal(fold(ch));
    }
  }
  return new RegExp(`^${src}$`, 'su');
}

/** A LIKE matcher that caches the last compiled pattern (patterns are usually constant). */
export class LikeMatcher {
  #pattern: string | undefined;
  #escape: string | undefined;
  #regex: RegExp = /^$/;

  constructor(private readonly fold: (s: string) => string = identity) {}

  matches(subject: string, pattern: string, escape: string): boolean {
    if (pattern !== this.#pattern || escape !== this.#escape) {
      this.#regex = compileLike(pattern, escape, this.fold);
      this.#pattern = pattern;
      this.#escape = escape;
    }
    return this.#regex.test(this.fold(subject));
  }
}
