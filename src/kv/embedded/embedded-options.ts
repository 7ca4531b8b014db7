/** Options of EmbeddedStore.open (embedded-store.ts). */
export interface EmbeddedStoreOptions {
  /** Initial LMDB map size in bytes (virtual; the file grows as used and lmdb-js enlarges the map when full). Default 1 GiB. */
  readonly mapSize?: number;
  /** LMDB reader slots shared by all processes on the directory. Default 1024. */
  readonly maxReaders?: number;
  /** Tombstones younger than this are kept (see tombstone-gc.ts). Default 10 minutes. */
  readonly gcAgeMs?: number;
  /**
   * Distinct LMDB read transactions this process may pin at once (snapshots opened between two
   * commits share one). Beyond it the oldest is ended and its snapshots expire. Default
   * maxReaders / 4, leaving reader slots for other processes on the directory.
   */
  readonly maxPinnedReadTxns?: number;
  /** How often the collector runs; 0 disables the timer. Default 60 s. */
  readonly gcIntervalMs?: number;
  /**
   * Told about failing writes (disk full, I/O errors: once per run of failures, again after a
   * write succeeded) and failed tombstone GC rounds; the store keeps going. Default: a process
   * warning.
   */
  readonly onBackgroundError?: (what: string, err: unknown) => void;
  /** A commit or range delete unfinished this long counts as stuck (write-watchdog.ts). Default 60 s; 0 = never. */
  readonly stuckWriteMs?: number;
  /** After a free-list fault, until a write succeeds: the stuck limit instead (default 5 s, at most stuckWriteMs). */
  readonly stuckAfterFaultMs?: number;
  /** Told once when a write is stuck (the server exits on it). Default: onBackgroundError. */
  readonly onStuckWrite?: (ageMs: number) => void;
  /**
   * Commit durably through the redo log (redo-log.ts) instead of an LMDB sync per write batch.
   * Default: on where the machine's boot id is known (Linux), which crash recovery needs.
   * Every process on a directory must use the same setting.
   */
  readonly redoLog?: boolean;
  /**
   * Least time between two checkpoints while there are writes (checkpointer.ts). Default 5000 ms;
   * 0 = only at open, close and checkpoint(). Longer: fewer data-file flushes (more throughput,
   * lower tail latency), a larger data file (pages freed since the last checkpoint are not reused
   * before the next) and more log to replay after a reboot.
   */
  readonly checkpointMs?: number;
  /** Told when the store was recovered after a reboot (recovery.ts): how many logged transactions it replayed. */
  readonly onRecovered?: (replayed: number) => void;
  /** This boot's id (tests simulate a reboot with another). Default: the kernel's. */
  readonly bootId?: string;
}
