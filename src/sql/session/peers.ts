/**
 * The other SQL processes of one server (`shale serve --workers N`). Each process serves its own
 * connections; KILL, SHOW PROCESSLIST and information_schema.PROCESSLIST reach the others'
 * through this, which the process supervisor answers over its IPC channel (cli/worker-peers.ts).
 * A process that does not answer in time is missing from the list, and its connection ids are
 * unknown to KILL (1094), as on a server that does not have them.
 */
import type { KillTarget } from './kill.js';
import type { ProcessInfo } from './show-server.js';

export interface ProcessPeers {
  /** The sessions of every other process that answered. */
  processList(): Promise<ProcessInfo[]>;
  /** The session with this connection id in another process, as KILL's target; undefined if none has it. */
  killTarget(connectionId: number): Promise<KillTarget | undefined>;
}
