/**
 * KILL and PROCESSLIST across the processes of `shale serve --workers N` (sql/session/peers.ts).
 * A worker asks the primary over the node:cluster IPC channel; the primary asks the other
 * workers (a connection id names its worker: ids of worker i start at i * stride + 1) and
 * answers with what they said:
 *
 *   worker -> primary  {type: 'shale:peer-req', id, q}      q: list | find conn | kill conn
 *   primary -> worker  {type: 'shale:peer-ask', id, q}      the same question, to one worker
 *   worker -> primary  {type: 'shale:peer-answer', id, a}   a: {list} | {user} | {}
 *   primary -> worker  {type: 'shale:peer-res', id, a}      the answers, merged
 *
 * A worker that does not answer within PEER_WAIT_MS counts as having nothing (its sessions are
 * missing from the list, its ids unknown to KILL). KILL is sent on without waiting for it.
 */
import cluster, { type Worker } from 'node:cluster';
import type { ClosableEngine, KillTarget, ProcessInfo, ProcessPeers } from '../sql/session/index.js';

const REQ = 'shale:peer-req';
const RES = 'shale:peer-res';
const ASK = 'shale:peer-ask';
const ANSWER = 'shale:peer-answer';
/** How long a question waits for the answers of busy or dying workers. */
const PEER_WAIT_MS = 1_500;

type Question = { readonly op: 'list' } | { readonly op: 'find'; readonly conn: number } | { readonly op: 'kill'; readonly conn: number; readonly queryOnly: boolean };

interface Answer {
  readonly list?: ProcessInfo[];
  readonly user?: string;
}

interface Envelope {
  readonly type: string;
  readonly id: number;
  readonly q?: Question;
  readonly a?: Answer;
}

/** `msg` as an envelope of `type` (IPC messages arrive untyped; other modules share the channel). */
function envelope(msg: unknown, type: string): Envelope | undefined {
  if (typeof msg !== 'object' || msg === null || !('type' in msg) || msg.type !== type || !('id' in msg) || typeof msg.id !== 'number') return undefined;
  if ('q' in msg && !isQuestion(msg.q)) return undefined;
  return msg as Envelope;
}

function isQuestion(q: unknown): q is Question {
  if (typeof q !== 'object' || q === null || !('op' in q)) return false;
  if (q.op === 'list') return true;
  if (!('conn' in q) || typeof q.conn !== 'number') return false;
  return q.op === 'find' || (q.op === 'kill' && 'queryOnly' in q && typeof q.queryOnly === 'boolean');
}

/** Calls that wait for one answer each, by id, resolved with {} after PEER_WAIT_MS. */
class Pending {
  private readonly waiting = new Map<number, (a: Answer) => void>();
  private nextId = 1;

  /** `send` sends question `id` and calls `failed` if it cannot (the channel is closed). */
  open(send: (id: number, failed: () => void) => void): Promise<Answer> {
    const id = this.nextId++;
    return new Promise<Answer>((resolve) => {
      const timer = setTimeout(() => done({}), PEER_WAIT_MS);
      const done = (a: Answer): void => {
        clearTimeout(timer);
        this.waiting.delete(id);
        resolve(a);
      };
      this.waiting.set(id, done);
      send(id, () => done({}));
    });
  }

  settle(id: number, a: Answer | undefined): void {
    this.waiting.get(id)?.(a ?? {});
  }
}

/** In a worker: the engine's peers, asked through the primary. */
export class PrimaryPeers implements ProcessPeers {
  private readonly pending = new Pending();

  constructor() {
    process.on('message', (msg: unknown) => {
      const res = envelope(msg, RES);
      if (res !== undefined) this.pending.settle(res.id, res.a);
    });
  }

  async processList(): Promise<ProcessInfo[]> {
    return (await this.ask({ op: 'list' })).list ?? [];
  }

  async killTarget(conn: number): Promise<KillTarget | undefined> {
    const { user } = await this.ask({ op: 'find', conn });
    if (user === undefined) return undefined;
    const kill = (queryOnly: boolean): void => void this.ask({ op: 'kill', conn, queryOnly });
    return { user, killQuery: () => kill(true), killConnection: () => kill(false) };
  }

  private ask(q: Question): Promise<Answer> {
    return this.pending.open((id, failed) => sendToPrimary({ type: REQ, id, q }, failed));
  }
}

/** Sends to the primary; `failed` runs when the channel is closed (a false return only means a backlog). */
function sendToPrimary(msg: Envelope, failed: () => void = () => undefined): void {
  if (process.send === undefined || !process.connected) return failed();
  process.send(msg, undefined, {}, (err: Error | null) => {
    if (err !== null) failed();
  });
}

/** In a worker: answers the primary's questions about this process's sessions. */
export function answerPeers(engine: ClosableEngine): void {
  process.on('message', (msg: unknown) => {
    const ask = envelope(msg, ASK);
    if (ask?.q === undefined) return;
    sendToPrimary({ type: ANSWER, id: ask.id, a: answer(engine, ask.q) });
  });
}

function answer(engine: ClosableEngine, q: Question): Answer {
  if (q.op === 'list') return { list: engine.processList() };
  const target = engine.killTarget(q.conn);
  if (target === undefined) return {};
  if (q.op === 'kill') {
    if (q.queryOnly) target.killQuery();
    else target.killConnection(false);
    return {};
  }
  return { user: target.user };
}

/** In the primary: routes the workers' questions. `owner` names the worker serving a connection id. */
export function routePeerQuestions(owner: (conn: number) => Worker | undefined): void {
  const pending = new Pending();
  const ask = (w: Worker, q: Question): Promise<Answer> =>
    pending.open((id, failed) => {
      if (!w.isConnected()) return failed();
      w.send({ type: ASK, id, q } satisfies Envelope, undefined, (err: Error | null) => {
        if (err !== null) failed();
      });
    });
  cluster.on('message', (from: Worker, msg: unknown) => {
    const answered = envelope(msg, ANSWER);
    if (answered !== undefined) return pending.settle(answered.id, answered.a);
    const req = envelope(msg, REQ);
    if (req?.q === undefined) return;
    const q = req.q;
    void reply(q, from, ask, owner).then((a) => {
      if (from.isConnected()) from.send({ type: RES, id: req.id, a } satisfies Envelope, undefined, () => undefined);
    });
  });
}

async function reply(q: Question, from: Worker, ask: (w: Worker, q: Question) => Promise<Answer>, owner: (conn: number) => Worker | undefined): Promise<Answer> {
  if (q.op === 'list') {
    const others = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w !== from && w.isConnected());
    const answers = await Promise.all(others.map((w) => ask(w, q)));
    return { list: answers.flatMap((a) => a.list ?? []) };
  }
  const target = owner(q.conn);
  if (target === undefined || target === from) return {};
  return ask(target, q);
}
