/**
 * parseBulkInsert over a statement's UTF-8 bytes, without making one string of the whole text.
 *
 * A string of more than V8's largest regular object (~128 KiB) is allocated in its large-object
 * space, which maps fresh memory for each one; on the virtual machines this is measured on, the
 * first touch of each fresh page is a page fault of ~10 µs, so decoding sysbench's 513 KB
 * INSERTs to one string cost ~2 ms each (1.2 ms of it in the kernel), against ~0.4 ms for the
 * same bytes decoded in pieces that fit the young generation's pages.
 *
 * Here the text is decoded in windows of `window` bytes (64 KiB), each ending before a UTF-8
 * lead byte, so a character is never cut. The head (verb, table, columns, VALUES) must lie in the
 * first window. Rows are scanned from a window with RowScanner; a row or separator that the
 * window's end cuts off fails to scan (a row needs its closing parenthesis), and is scanned again
 * from its start in a window beginning there (twice the size when the row alone overran the
 * last one). So a row scanned is a whole row, and the result is what parseBulkInsert returns
 * for the decoded text, or undefined wherever it returns undefined, plus when the head overruns
 * the first window or the text has bytes that are not UTF-8 (the caller decodes the whole text
 * then and takes the usual path).
 *
 * Example (window of 16 bytes, for illustration): `INSERT INTO t VALUES (1,'ab'),(2,'c')` is
 * decoded as `INSERT INTO t VA` (head cut: undefined here; real heads fit in 64 KiB), whereas
 * with the head in the first window, rows `(1,'ab')` and `(2,'c')` scanned from windows that
 * start at each cut-off row give [[lit 1n, lit 'ab'], [lit 2n, lit 'c']].
 */
import { decodeSurrogateEscape, isWellFormedText } from '../../util/index.js';
import type { Expr, InsertStmt } from './ast.js';
import { parseBulkHead, RowScanner } from './bulk-insert.js';

export const BULK_WINDOW_BYTES = 64 * 1024;

/** One decoded window: `text` is bytes [base, end) of the statement. */
interface Window {
  readonly text: string;
  readonly base: number;
  readonly end: number;
  /** Ends where the statement ends. */
  readonly final: boolean;
}

/** The statement in `bytes[start..]`, or undefined (see above). */
export function parseBulkInsertBytes(bytes: Uint8Array, start: number, window = BULK_WINDOW_BYTES): InsertStmt | undefined {
  const text = new WindowedText(bytes, window);
  let w = text.from(start, window);
  if (w === undefined) return undefined;
  const head = parseBulkHead(w.text);
  if (head === undefined) return undefined;
  const rows: Expr[][] = [];
  let scanner = new RowScanner(w.text, head.end);
  let expectRow = true;
  for (;;) {
    const mark = scanner.pos;
    if (expectRow) {
      const row = scanner.row();
      if (row !== undefined) {
        rows.push(row);
        expectRow = false;
        continue;
      }
    } else if (scanner.accept(44)) {
      expectRow = true;
      continue;
    } else if (scanner.restIsEnd()) {
      if (w.final) return { ...head.insert, rows };
    } else {
      return undefined;
    }
    // Cut off by the window's end, or not a row this scanner takes: read on from `mark`.
    if (w.final) return undefined;
    w = text.after(w, mark);
    if (w === undefined) return undefined;
    scanner = new RowScanner(w.text, 0);
  }
}

class WindowedText {
  constructor(
    private readonly bytes: Uint8Array,
    private readonly size: number,
  ) {}

  /** The window of about `size` bytes at byte `base`; undefined for bytes that are not UTF-8. */
  from(base: number, size: number): Window | undefined {
    const bytes = this.bytes;
    if (base >= bytes.length) return undefined;
    let end = Math.min(bytes.length, base + size);
    // End before a lead byte: back over continuation bytes (10xxxxxx).
    while (end < bytes.length && end > base && ((bytes[end] as number) & 0xc0) === 0x80) end--;
    if (end === base) return this.from(base, size * 2);
    const text = decodeSurrogateEscape(bytes, base, end);
    // An escaped byte (text not well-formed) would make char offsets and byte offsets disagree.
    if (!isWellFormedText(text)) return undefined;
    return { text, base, end, final: end === bytes.length };
  }

  /** The next window, starting at char `mark` of `w`: twice as large if that is where `w` started. */
  after(w: Window, mark: number): Window | undefined {
    const base = w.base + byteLength(w, mark);
    return this.from(base, base === w.base ? (w.end - w.base) * 2 : this.size);
  }
}

/** UTF-8 bytes of `w.text`'s first `chars` characters (all ASCII: as many). */
function byteLength(w: Window, chars: number): number {
  if (w.text.length === w.end - w.base) return chars;
  return Buffer.byteLength(w.text.slice(0, chars), 'utf8');
}
