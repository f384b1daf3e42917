import type { CapabilityResult } from './envelope';
import type { CapabilityError } from './events';
import type { ProgressInfo, Violation } from './fold';
import type { Principal } from './principal';
import { runEnded, type RunStatus } from './runStatus';

/**
 * Where a job stands: a run's five words (`RunStatus`), or `waiting` for a
 * person's approval before it runs (a REST or MCP call of a capability that
 * requires confirmation). A waiting job never counts as cut short by a restart.
 */
export type JobStatus = RunStatus | 'waiting';

/** How a job that needed a person's approval stands, or how its wait ended. */
export interface JobApproval {
  /** `waiting` until a person decides; `approved` (it then runs), `declined` or `expired` (it ends cancelled, nothing ran). */
  state: 'waiting' | 'approved' | 'declined' | 'expired';
  /** What it waits for and where a person approves it, or how the wait ended, in plain words. */
  message: string;
  /** Epoch milliseconds: past it, the job can no longer be approved and ends cancelled. */
  expiresAt: number;
  /** The principal's thread whose approval row decides it (absent when an MCP client asked its own user). */
  threadId?: string;
  /** That approval row's id. */
  approvalId?: string;
  /** Where it was decided: the chat's approval row, `POST /v1/jobs/{id}/approve|decline`, or the MCP client's elicitation. */
  decidedVia?: 'chat' | 'rest' | 'mcp';
  /** Epoch milliseconds. */
  decidedAt?: number;
}

/** The record every invocation keeps: what a REST client polls and a tracked card follows. */
export interface Job {
  /** Equal to the invocation id. */
  id: string;
  capability: string;
  /** The thread's key (`threadKey(ref)`: space/user/id), or `rest:<user>` / `mcp:<user>` for a door's call without a thread. */
  threadKey: string;
  status: JobStatus;
  progress?: ProgressInfo;
  result?: CapabilityResult;
  error?: CapabilityError;
  /** Postconditions that did not hold (the job is still `done`). */
  violations?: Violation[];
  /** A capability that requires confirmation, called through REST or MCP: the person's approval it waits for, or got. */
  approval?: JobApproval;
  /**
   * While it waits: the call to run once approved (its arguments and who asked), so a restarted
   * server can still run it. Never shown outside the server (`GET /v1/jobs/{id}` leaves it out).
   */
  held?: { args: unknown; principal: Principal };
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
}

/** Where jobs live: in memory by default, SQLite on the server. Small on purpose. */
export interface JobStore {
  put(job: Job): Promise<void>;
  get(id: string): Promise<Job | undefined>;
  /** Newest first. */
  list(options?: { threadKey?: string; limit?: number }): Promise<Job[]>;
  /**
   * Deletes finished jobs (`done`, `failed`, `cancelled`) past `retention`:
   * older than `maxAgeMs`, or beyond the newest `perPrincipal` of their
   * `threadKey`. Running and queued jobs stay. Answers how many went.
   * A store that keeps everything has none.
   */
  sweep?(retention: JobRetention, now: number): Promise<number>;
  /**
   * Takes a finished job's only record (a read answered at once) to write with
   * the next batch, shortly after the answer rather than before it: `get` and
   * `list` on this store know it at once, another process once it is written.
   * False when it cannot take it now (its last write failed, or too many
   * wait): `put` it instead. A store without it writes every record by `put`.
   */
  putLater?(job: Job): boolean;
  /** Writes every record `putLater` took and has not written yet (a server closing). */
  flush?(): Promise<void>;
  /**
   * Writes `job` over a job that is still `waiting`, atomically (on every instance of the
   * database); false, writing nothing, when it no longer waits (decided or expired already).
   * A person's approval is acted on once, however many doors deliver it.
   */
  settleWaiting?(job: Job): Promise<boolean>;
  /** Jobs that wait for a person's approval, oldest first. */
  waiting?(): Promise<Job[]>;
}

/** True when a job's run is over: `done`, `failed` or `cancelled` (a waiting job has not started). */
export function jobEnded(status: JobStatus): boolean {
  return status !== 'waiting' && runEnded(status);
}

/** How long finished jobs are kept (see `JobStore.sweep`). */
export interface JobRetention {
  /** Finished jobs older than this go. @default 7 days */
  maxAgeMs: number;
  /**
   * Finished jobs kept per principal and door (`rest:<user>`, `mcp:<user>`)
   * and per chat thread; the oldest go first. @default 1000
   */
  perPrincipal: number;
}

/** The retention a server applies when its host sets none: 7 days, 1,000 finished jobs per principal. */
export const DEFAULT_JOB_RETENTION: JobRetention = { maxAgeMs: 7 * 24 * 3_600_000, perPrincipal: 1_000 };

/** The statuses of a finished job as a store may hold them (`ready`: a record from 0.1). */
export const FINISHED_STATUSES = ['done', 'failed', 'cancelled', 'ready'] as const;

export interface MemoryJobStoreOptions {
  /** Finished jobs kept; the oldest finished ones are dropped beyond it. Running jobs are always kept. @default 1000 */
  limit?: number;
}

/**
 * A job store in memory, for the page and for tests. It hands out deep
 * copies; what it is given it keeps as a shallow copy, since results are
 * shared, never changed, by the runtime (the event log holds the same ones).
 */
export function createMemoryJobStore({ limit = 1000 }: MemoryJobStoreOptions = {}): JobStore {
  const jobs = new Map<string, Job>();
  return {
    async put(job) {
      jobs.delete(job.id);
      jobs.set(job.id, { ...job });
      if (jobs.size <= limit) return;
      for (const [id, kept] of jobs) {
        if (jobs.size <= limit) break;
        if (jobEnded(kept.status)) jobs.delete(id);
      }
    },
    async get(id) {
      const job = jobs.get(id);
      return job && copy(job);
    },
    async list({ threadKey, limit = 100 } = {}) {
      return [...jobs.values()]
        .filter((job) => threadKey === undefined || job.threadKey === threadKey)
        .sort((a, b) => b.createdAt - a.createdAt)
        .slice(0, limit)
        .map(copy);
    },
    async settleWaiting(job) {
      if (jobs.get(job.id)?.status !== 'waiting') return false;
      jobs.set(job.id, { ...job });
      return true;
    },
    async waiting() {
      return [...jobs.values()]
        .filter((job) => job.status === 'waiting')
        .sort((a, b) => a.createdAt - b.createdAt)
        .map(copy);
    },
  };
}

/**
 * A job as a store kept it. Records written by 0.1 say `ready` where a run
 * now ends `done`, and name the thread's key `threadId`: both are read in
 * today's words.
 */
export function storedJob(stored: object): Job {
  const { threadId, ...job } = stored as Omit<Job, 'status'> & { threadId?: string; status: JobStatus | 'ready' };
  return { ...job, ...(job.threadKey === undefined && threadId !== undefined ? { threadKey: threadId } : {}), status: job.status === 'ready' ? 'done' : job.status };
}

/** A job a store kept as JSON text (see `storedJob`). */
export const parseStoredJob = (body: string): Job => storedJob(JSON.parse(body) as object);

/** Jobs are JSON by contract (they go over REST and into SQLite); a JSON copy is about twice as fast as structuredClone. */
const copy = (job: Job): Job => JSON.parse(JSON.stringify(job)) as Job;

const defaults = new WeakMap<object, JobStore>();

/**
 * The in-memory job store `invoke` uses for a registry when no `jobs` option
 * is given: one per registry, so a host can look a job up afterwards.
 * @example
 * await invoke('report.build', { sections: 2 }, { registry, emit, threadId: 't1', invocationId: 'inv1' });
 * (await defaultJobStore(registry).get('inv1'))?.status; // 'done'
 */
export function defaultJobStore(registry: object): JobStore {
  let store = defaults.get(registry);
  if (!store) defaults.set(registry, (store = createMemoryJobStore()));
  return store;
}

/** Callbacks for the next turn of the event loop: one `setImmediate` (a timer in a browser) for all the jobs started in this one, not a timer each. */
let nextTurn: (() => void)[] = [];
const turn: (callback: () => void) => void = typeof setImmediate === 'function' ? (callback) => void setImmediate(callback) : (callback) => void setTimeout(callback, 0);
function onNextTurn(callback: () => void): void {
  if (nextTurn.push(callback) === 1) {
    turn(() => {
      const due = nextTurn;
      nextTurn = [];
      for (const run of due) run();
    });
  }
}

/** `store.put(job)`, a store that throws at once included (as a rejection). */
function putNow(store: JobStore, job: Job): Promise<void> {
  try {
    return store.put(job);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Keeps one invocation's job record up to date: writes in order, progress at most every `throttleMs`. */
export interface JobTracker {
  update(patch: Partial<Omit<Job, 'id' | 'createdAt'>>): void;
  /** A throttled progress write; the last value always lands before `finish`. */
  progress(progress: ProgressInfo): void;
  /** Writes the final record and waits for every write. */
  finish(patch: Partial<Omit<Job, 'id' | 'createdAt'>>): Promise<void>;
}

/**
 * Starts tracking a job. The first record is written on the next tick, so a
 * job that ends within the same tick is written once, already finished.
 * Store failures never reach the invocation: each one goes to `onError`
 * (invoke shows it on the card's output).
 */
export function trackJob(
  store: JobStore,
  initial: Job,
  { now = Date.now, throttleMs = 250, onError }: { now?: () => number; throttleMs?: number; onError: (error: unknown) => void },
): JobTracker {
  let job = initial;
  let chain: Promise<void> = Promise.resolve();
  let lastWrite = -Infinity;
  let written = false;
  /** Writes begun and not yet landed. */
  let writing = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** The last write failed: the record in the store is behind. */
  let behind = false;
  const write = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    lastWrite = now();
    written = true;
    const snapshot = job;
    // In order: at once when no write is under way, else after the one before it.
    const put = writing === 0 ? putNow(store, snapshot) : chain.then(() => store.put(snapshot));
    writing++;
    chain = put.then(
      () => {
        writing--;
        behind = false;
      },
      (error: unknown) => {
        writing--;
        behind = true;
        onError(error);
      },
    );
  };
  /** The final record did not land (the store is away): put it again with backoff, up to about ten minutes, so the job does not stay "running". */
  const keepTrying = async () => {
    for (let wait = 250, tries = 0; behind && tries < 125; wait = Math.min(wait * 2, 5_000), tries++) {
      await new Promise((resolve) => setTimeout(resolve, wait).unref?.());
      await store.put(job).then(
        () => void (behind = false),
        () => undefined,
      );
    }
  };
  const later = (ms: number) => {
    timer ??= setTimeout(write, ms);
  };
  const apply = (patch: Partial<Job>) => {
    // Object.assign: several times faster than two spreads and a field (one per record written).
    const next: Job = Object.assign({}, job, patch);
    next.updatedAt = now();
    job = next;
  };
  // The first record on the next turn of the event loop, unless a write came first (the job ended in this one).
  onNextTurn(() => {
    if (!written) write();
  });
  return {
    update(patch) {
      apply(patch);
      write();
    },
    progress(progress) {
      apply({ progress });
      if (now() - lastWrite >= throttleMs) write();
      else later(throttleMs - (now() - lastWrite));
    },
    async finish(patch) {
      apply(patch);
      write();
      await chain;
      if (behind) void keepTrying();
    },
  };
}
