/**
 * Options of `shale check bank`: the target URL and the workload numbers, validated into one
 * immutable value. The parsers throw commander's InvalidArgumentError so a bad flag is reported as
 * a usage error (exit code 2).
 */
import { InvalidArgumentError } from 'commander';
import { DEFAULT_MYSQL_PORT, parseMysqlUrl } from '../mysql-url.js';

/** Where the checker connects: parsed from mysql://user:password@host:port/database. */
export interface BankTarget {
  readonly host: string;
  readonly port: number;
  readonly user: string;
  readonly password: string;
  readonly database: string;
}

export interface BankOptions {
  readonly target: BankTarget;
  /** Number of accounts, ids 0..accounts-1. */
  readonly accounts: number;
  /** Concurrent clients, each with its own connection. */
  readonly clients: number;
  /** How long the clients run, in seconds. */
  readonly durationS: number;
  /** Initial balance of every account. */
  readonly initial: bigint;
  /** Seed of the clients' random choices (client i uses seed + i). */
  readonly seed: number;
  /** Per-statement timeout in seconds; a statement that takes longer is an unknown outcome. */
  readonly timeoutS: number;
  readonly json: boolean;
}

export const DEFAULT_PORT = DEFAULT_MYSQL_PORT;
export const DEFAULT_DATABASE = 'bankcheck';
const IDENT = /^[A-Za-z0-9_$]{1,64}$/;

/** Parses mysql://[user[:password]@]host[:port][/database] (database default: bankcheck). */
export function parseBankUrl(value: string): BankTarget {
  const { host, port, user, password, database: named } = parseMysqlUrl(value);
  const database = named === '' ? DEFAULT_DATABASE : named;
  if (!IDENT.test(database)) {
    throw new InvalidArgumentError(`database name "${database}" must be 1-64 letters, digits, _ or $`);
  }
  return { host, port, user, password, database };
}

/** The target as a URL without the password, for reports. */
export function describeTarget(t: BankTarget): string {
  const host = t.host.includes(':') ? `[${t.host}]` : t.host;
  return `mysql://${encodeURIComponent(t.user)}@${host}:${t.port}/${t.database}`;
}

/** A commander argument parser for a whole number in [min, max]. */
export function intInRange(min: number, max: number): (value: string) => number {
  return (value: string): number => {
    const n = /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`must be a whole number ${min}-${max}`);
    }
    return n;
  };
}

/** A commander argument parser for a positive number of seconds (fractions allowed). */
export function seconds(min: number, max: number): (value: string) => number {
  return (value: string): number => {
    const n = /^\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : NaN;
    if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`must be a number of seconds ${min}-${max}`);
    return n;
  };
}

/** The flags commander hands to the action, before they are checked together. */
export interface BankFlags {
  url: BankTarget;
  accounts: number;
  clients: number;
  duration: number;
  initial: number;
  seed?: number;
  timeout: number;
  json?: boolean;
}

/** Transfer ids are clientIndex * ID_STRIDE + seq; they must stay exact in a double. */
export const ID_STRIDE = 1_000_000_000;
export const MAX_CLIENTS = 1000;

/** Combines the parsed flags into BankOptions (a random seed if none was given). */
export function bankOptions(flags: BankFlags, randomSeed: () => number = defaultSeed): BankOptions {
  return {
    target: flags.url,
    accounts: flags.accounts,
    clients: flags.clients,
    durationS: flags.duration,
    initial: BigInt(flags.initial),
    seed: flags.seed ?? randomSeed(),
    timeoutS: flags.timeout,
    json: flags.json === true,
  };
}

function defaultSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}
