/**
 * What a failed statement tells the checker. Only an ERR packet from the server (an error number
 * and SQLSTATE on a live connection) says "this statement failed and the server knows it"; anything
 * else (socket reset, connection lost, client-side timeout, protocol error) leaves the state of the
 * transaction unknown, and the connection unusable.
 */

export interface ErrorInfo {
  /** True when the server answered with an ERR packet and the connection is still usable. */
  readonly server: boolean;
  /** The MySQL error number as text ("1213") or the client/socket error code ("ECONNRESET"). */
  readonly code: string;
  /** The MySQL error number when the server sent one (also for errors that closed the connection). */
  readonly errno?: number;
  readonly message: string;
}

function field(err: object, name: string): unknown {
  return (err as Record<string, unknown>)[name];
}

/** Classifies an error thrown by mysql2 (or anything else). */
export function classifyError(err: unknown): ErrorInfo {
  if (typeof err !== 'object' || err === null) return { server: false, code: 'UNKNOWN', message: String(err) };
  const errno = field(err, 'errno');
  const sqlState = field(err, 'sqlState');
  const code = field(err, 'code');
  const fatal = field(err, 'fatal');
  const message = err instanceof Error ? err.message : String(field(err, 'message') ?? 'error');
  const fromServer = typeof errno === 'number' && errno >= 1000 && typeof sqlState === 'string' && sqlState.length === 5;
  if (fromServer && fatal !== true) return { server: true, code: String(errno), errno, message };
  if (fromServer) return { server: false, code: String(errno), errno, message };
  return { server: false, code: typeof code === 'string' && code !== '' ? code : 'UNKNOWN', message };
}

/** Counts of errors by code, e.g. { "1213": 40, "ECONNRESET": 3 }. */
export class ErrorCounts {
  private readonly counts = new Map<string, number>();

  add(code: string): void {
    this.counts.set(code, (this.counts.get(code) ?? 0) + 1);
  }

  total(): number {
    let n = 0;
    for (const v of this.counts.values()) n += v;
    return n;
  }

  /** Sorted by count, largest first. */
  entries(): Array<[string, number]> {
    return [...this.counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  }

  toJSON(): Record<string, number> {
    return Object.fromEntries(this.entries());
  }

  /** "1213 x40, ECONNRESET x3" or "none". */
  describe(): string {
    const parts = this.entries().map(([code, n]) => `${code} x${n}`);
    return parts.length === 0 ? 'none' : parts.join(', ');
  }
}
