import type { ThreadEvent } from '../events';
import { interruptionEvents } from './derive';
import { reportStoreError, type HostContext } from './hostContext';
import { stateOf, type Busy, type LiveThread, type LiveThreads } from './liveThread';

/** Why work stops when its events can no longer be stored. */
export const STORE_LOST_REASON = 'The database stopped answering while this ran, so it did not finish. Run it again.';

/** First wait before reading a lost thread again, and the longest. */
const FIRST_TRY_MS = 250;
const LONGEST_WAIT_MS = 5_000;
/** How long the stopped work may take to unwind before the thread is read again anyway. */
const UNWIND_MS = 10_000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref?.());

/**
 * What the host does when a thread's append fails (the database went away mid-run): the work on the
 * thread is stopped (it cannot be recorded), the thread is dropped from memory once it has unwound,
 * and it is read again from the log with backoff until the store answers. Then its followers here
 * get whatever the log has that they lack (another instance may have closed it meanwhile), and the
 * thread is closed as after a crash: what was running ends `interrupted`, once, by whichever instance
 * takes its lease first. Nothing it did past the log was ever handed on, so no client saw it.
 */
export function createStoreLoss(ctx: HostContext, parts: { threads: LiveThreads; busy: () => Busy; fanOut: (key: string, event: ThreadEvent) => void }) {
  const { threads, fanOut } = parts;
  const restoring = new Set<string>();

  const restore = async (first: LiveThread) => {
    let t: LiveThread | null = first;
    for (let wait = FIRST_TRY_MS; t; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
      const until = Date.now() + UNWIND_MS;
      while ((t.busy > 0 || t.running.size > 0) && Date.now() < until) await sleep(50);
      await t.writing;
      threads.forget(t);
      await sleep(wait);
      try {
        const fresh = await threads.opened(t.principal, t.ref.id, false);
        if (!fresh) return;
        for (const event of await ctx.store.read(fresh.ref, 0)) fanOut(fresh.key, event);
        await parts.busy()(fresh, async () => {
          // With coordination, taking the lease afresh closes what the log shows running; alone, it is done here.
          if (ctx.coordination || fresh.running.size > 0) return;
          const cut = interruptionEvents(stateOf(fresh));
          if (!cut.length) return;
          fresh.open = true;
          for (const event of cut) fresh.emit(event);
        });
        // Lost again while closing it: go round once more.
        t = fresh.lost ? fresh : null;
      } catch (error) {
        reportStoreError(error);
      }
    }
  };

  return {
    lost(t: LiveThread) {
      // `interrupted`: the job's record says so too, as after a crash.
      for (const controller of t.running.values()) controller.abort(Object.assign(new Error(STORE_LOST_REASON), { code: 'interrupted' }));
      if (restoring.has(t.key)) return;
      restoring.add(t.key);
      void restore(t).finally(() => restoring.delete(t.key));
    },
  };
}
