/**
 * LIKE patterns: `%` any run, `_` one character, the escape character (default `\`) makes the
 * next character literal. Case-sensitive (binary collation for now). Compiled to an anchored
 * RegExp; a trailing lone escape matches itself as MySQL does.
 */

const REGEX_META = /[.*+?^${}()|[\]\\/]/g;

function literal(ch: string): string {
  return ch.replace(REGEX_META, '\\$&');
}

export function compileLike(pattern: string, escape: string): RegExp {
  let src = '';
  const chars = Array.from(pattern);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === escape && escape !== '' && i + 1 < chars.length) {
      src += literal(chars[++i] as string);
    } else if (ch === '%') {
      src += '.*';
    } else if (ch === '_') {
      src += '.';
    } else {
      src += literal(ch);
    }
  }
  return new RegExp(`^${src}$`, 'su');
}

/** A LIKE matcher that caches the last compiled pattern (patterns are usually constant). */
export class LikeMatcher {
  #pattern: string | undefined;
  #escape: string | undefined;
  #regex: RegExp = /^$/;

  matches(subject: string, pattern: string, escape: string): boolean {
    if (pattern !== this.#pattern || escape !== this.#escape) {
      this.#regex = compileLike(pattern, escape);
      this.#pattern = pattern;
      this.#escape = escape;
    }
    return this.#regex.test(subject);
  }
}
