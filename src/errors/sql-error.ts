import { ERRORS, type ErrorName } from './codes.js';

/**
 * A user-visible MySQL error. Raised where the failure happens; `server/` turns it into an
 * ERR packet (errno, `#` + SQLSTATE, message). Anything that is not a SqlError reaching the
 * server is a bug and is reported as 1105.
 */
export class SqlError extends Error {
  readonly errno: number;
  readonly sqlState: string;
  readonly errName: ErrorName;

  constructor(name: ErrorName, message: string) {
    super(message);
    const spec = ERRORS[name];
    this.name = 'SqlError';
    this.errName = name;
    this.errno = spec.errno;
    this.sqlState = spec.sqlState;
  }

  /** Builds the error from the registry, filling each `%s` in order with `args`. */
  static of(name: ErrorName, ...args: ReadonlyArray<string | number | bigint>): SqlError {
    return new SqlError(name, formatTemplate(ERRORS[name].template, args));
  }

  /** True for conflicts the client may retry (1213 / 40001, 1205, 1020). */
  get retryable(): boolean {
    return this.errno === 1213 || this.errno === 1205 || this.errno === 1020;
  }
}

/** Replaces each `%s` in `template` with the next argument; missing arguments become ''. */
export function formatTemplate(template: string, args: ReadonlyArray<string | number | bigint>): string {
  let i = 0;
  return template.replace(/%s/g, () => {
    const arg = args[i++];
    return arg === undefined ? '' : String(arg);
  });
}

/** Type guard used at layer boundaries. */
export function isSqlError(err: unknown): err is SqlError {
  return err instanceof SqlError;
}
