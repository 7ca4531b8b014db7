/**
 * Statement text for logs without any value in it: every literal (string, number, hex, bit)
 * becomes `?`, comments are gone (the lexer drops them), whitespace is one space, value lists
 * collapse (`IN (...)`, `VALUES (...) /* , ... *\/`, `VALUES (?) /* , ... *\/`) so a statement
 * has one normal form whatever its list lengths and row count. Unlike the statement-cache
 * digest, literals that label a column are replaced too.
 */
import { isLiteralToken, tokenize, type Token } from './lexer.js';

/** Longest normalized text returned; longer texts end with `...`. */
export const MAX_NORMALIZED_LENGTH = 1024;

export function normalizeStatement(sql: string): string {
  let tokens: Token[];
  try {
    tokens = tokenize(sql);
  } catch {
    return '?'; // an unterminated literal: nothing of it is safe to show
  }
  while (tokens.length > 0 && tokens[tokens.length - 1]?.type === 'semi') tokens.pop();
  const words = collapseRows(collapseLists(tokens.map((t) => (isLiteralToken(t) || t.type === 'param' ? '?' : t.text))));
  const text = join(words, tokens);
  return text.length <= MAX_NORMALIZED_LENGTH ? text : `${text.slice(0, MAX_NORMALIZED_LENGTH - 3)}...`;
}

/** `( ? , ? , ? )` -> `(...)`; a lone `( ? )` becomes one `(?)` piece. */
function collapseLists(words: readonly string[]): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (w === '(' && words[i + 1] === '?') {
      let j = i + 2;
      while (words[j] === ',' && words[j + 1] === '?') j += 2;
      if (words[j] === ')') {
        out.push({ text: j === i + 2 ? '(?)' : '(...)', first: i, last: j });
        i = j;
        continue;
      }
    }
    out.push({ text: w, first: i, last: i });
  }
  return out;
}

/** `(...) , (...) , (...)` -> `(...) /* , ... *\/` (the same for `(?)` rows). */
function collapseRows(pieces: readonly Piece[]): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const p = pieces[i] as Piece;
    let j = i;
    const row = p.text === '(...)' || p.text === '(?)';
    while (row && pieces[j + 1]?.text === ',' && pieces[j + 2]?.text === p.text) j += 2;
    if (j > i) {
      out.push({ text: `${p.text} /* , ... */`, first: p.first, last: (pieces[j] as Piece).last });
      i = j;
      continue;
    }
    out.push(p);
  }
  return out;
}

interface Piece {
  readonly text: string;
  /** Token index range the piece stands for (to keep the source's spacing between pieces). */
  readonly first: number;
  readonly last: number;
}

function join(pieces: readonly Piece[], tokens: readonly Token[]): string {
  let out = '';
  let prevEnd = -1;
  for (const p of pieces) {
    const start = tokens[p.first]?.start ?? 0;
    if (prevEnd >= 0 && start !== prevEnd) out += ' ';
    out += p.text;
    prevEnd = tokens[p.last]?.end ?? start;
  }
  return out;
}
