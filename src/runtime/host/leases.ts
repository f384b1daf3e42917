import { parseThreadKey } from '../stores/eventStore';
import { interruptionEvents } from './derive';
import { reportStoreError, type HostContext } from './hostContext';
import { stateOf, type Busy, type LiveThread, type LiveThreads } from './liveThread';

/** Who writes a thread when several instances share one database, and what counts as a thread being busy. */
export interface Leases {
  /** Runs `work` as one request on the thread: counted busy (never evicted meanwhile), then settled. */
  busy: Busy;
  /** Gives the lease back once the thread is quiet here: another instance may write it next. */
  releaseIfQuiet(t: LiveThread): Promise<void>;
  /** Listens to the other instances (appends, cancels, dead instances); returns how to stop listening. */
  listen(pull: (key: string, seq: number) => void): Array<() => void>;
}

/**
 * Without `coordination` this process is the only writer: nothing is leased
 * and `busy` waits for nothing before the work starts.
 */
export function createLeases(ctx: HostContext, threads: LiveThreads): Leases {
  const { coordination, store, now } = ctx;

  /**
   * With coordination: takes the thread's write lease, then reads what other
   * instances wrote meanwhile. Taken afresh, whatever the log shows running
   * is nobody's: its instance died or gave up (this one runs nothing on the
   * thread yet), so it is closed as interrupted, as at a restart.
   */
  const lease = (t: LiveThread): Promise<void> | undefined => {
    if (!coordination || t.leased) return;
    t.leasing ??= (async () => {
      await coordination.acquire(t.key);
      t.leased = true;
      await t.writing;
      const fresh = await store.read(t.ref, t.lastSeq);
      for (const event of fresh) threads.absorb(t, event);
      if (t.running.size === 0) {
        const cut = interruptionEvents(stateOf(t));
        if (cut.length) {
          t.open = true;
          for (const event of cut) t.emit(event);
        }
      }
    })().finally(() => {
      t.leasing = null;
    });
    return t.leasing;
  };

  const releaseIfQuiet = async (t: LiveThread) => {
    if (!coordination || !t.leased || t.busy > 0 || t.running.size > 0 || t.leasing) return;
    await t.writing;
    if (!t.leased || t.busy > 0 || t.running.size > 0 || t.leasing) return;
    t.leased = false;
    await coordination.release(t.key);
  };

  const busy: Busy = async (t, work) => {
    t.busy++;
    try {
      // Without coordination nothing waits here: the page's events come out in the click's task.
      const leasing = lease(t);
      if (leasing) await leasing;
      return await work();
    } finally {
      t.busy--;
      t.lastUsed = now();
      await t.writing;
      await threads.settleOpen(t);
      await releaseIfQuiet(t);
    }
  };

  /** Closes what a dead instance left running on a thread (taking its lease does it). */
  const recoverKey = async (key: string) => {
    const ref = parseThreadKey(key);
    if (!ref) return;
    const t = await threads.opened({ user: ref.user, space: ref.space }, ref.id, false);
    if (t) await busy(t, async () => undefined);
  };

  return {
    busy,
    releaseIfQuiet,
    listen(pull) {
      if (!coordination) return [];
      return [
        coordination.onAppend(pull),
        coordination.onCancel((key, id) => threads.get(key)?.running.get(id)?.abort(new Error('Cancelled by the user.'))),
        coordination.onReap(({ threads: keys }) => {
          for (const key of keys) void recoverKey(key).catch(reportStoreError);
        }),
      ];
    },
  };
}
