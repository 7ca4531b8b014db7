import { decodeSurrogateEscape } from './surrogate-escape.js';

/**
 * A statement's text kept as the bytes it arrived in (`bytes[start..]`, UTF-8 with escaped
 * invalid bytes as decodeSurrogateEscape reads them), decoded on first use only: a large INSERT
 * read straight from its bytes (sql/parse/bulk-insert-bytes.ts) needs its text only if someone
 * looks (PROCESSLIST, the slow log).
 */
export class LazyText {
  private decoded: string | undefined;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly start: number,
  ) {}

  get text(): string {
    this.decoded ??= decodeSurrogateEscape(this.bytes, this.start);
    return this.decoded;
  }
}
