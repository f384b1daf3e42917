import { loadOnce } from '../loadOnce';
import type { Principal } from '../principal';
import { SKILL_NAME } from '../skillField';
import { threadKey } from '../stores/eventStore';
import { decisionsOnUse } from './decisionsOnUse';
import { elicitationsOnUse, feedbackOnUse } from './extrasOnUse';
import { createVersions } from './versions';
import { createFollowers } from './followers';
import { createRegistry } from '../registry';
import { createHostContext, type HostRegistry, type TurnParts } from './hostContext';
import type { ThreadHost, ThreadHostOptions } from './hostTypes';
import { createLeases } from './leases';
import { createStoreLoss } from './storeLoss';
import { createLiveThreads, type LiveThread } from './liveThread';
import { createSubThreads } from './subThreads';
import { createTurns } from './turns';

export { FeedbackError, NothingWaitingError, ThreadLimitError, VersionError } from './hostTypes';
export type { DoorApprovalHook, DoorApprovalRun, FeedbackChange, FeedbackEntry, HostDecision, HostFeedback, HostInvoke, HostSkill, HostTurn, ProviderHooks, RunCapability, ThreadHost, ThreadHostOptions } from './hostTypes';

const DEFAULT_IDLE_MS = 60_000;

/** The turn loop, the capability runner and what decides them (`./turnParts`): loaded on first use, then kept. */
const turnParts = loadOnce<TurnParts>(() => import('./turnParts'), 'its turn code');

/** Waits, up to `ms`, until the thread's work and writes are done; true when they are. */
async function settled(t: LiveThread, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  const working = () => t.busy > 0 || t.running.size > 0 || t.writing !== null;
  while (working() && Date.now() < until) {
    // A timer, not only the thread's promises (often settled already): the work it waits for needs I/O to go on.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return !working();
}

/**
 * The one place threads live: the coordinator of the host's parts. The
 * thread table (`./liveThread`) opens threads from their logs and writes
 * them; followers (`./followers`) hear what is stored; leases (`./leases`)
 * say which instance writes a thread and when it is busy; turns (`./turns`)
 * run the model and capability calls; decisions (`./decisions`) answer what
 * waits for the user; sub-threads (`./subThreads`) run work in child threads.
 * Every request here is: open the thread, count it busy, queue it, hand it to
 * the part that does it.
 * @example
 * const host = createThreadHost({ capabilities, events: createSqliteEventStore(db) });
 * await host.send({ user: 'alice' }, { threadId: 't1', text: 'import customers.csv' });
 */
export function createThreadHost(options: ThreadHostOptions): ThreadHost {
  return createThreadHostWith(options, { create: createRegistry });
}

/**
 * A thread host whose registry is made by `registry`: a page's own workspace gives it one whose
 * JSON Schemas convert on first use (`./schemasOnUse`), so the page loads no converter until then.
 */
export function createThreadHostWith(options: ThreadHostOptions, registry: HostRegistry): ThreadHost {
  const ctx = createHostContext(options, { loaded: turnParts.current, load: turnParts.load }, registry);
  const { store, coordination } = ctx;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;

  const followers = createFollowers(ctx, (key) => threads.get(key));
  const threads = createLiveThreads(ctx, { fanOut: followers.fanOut, quiet: (t) => leases.releaseIfQuiet(t), lost: (t) => storeLoss.lost(t) });
  const leases = createLeases(ctx, threads);
  const storeLoss = createStoreLoss(ctx, { threads, busy: () => leases.busy, fanOut: followers.fanOut });
  const subThreads = createSubThreads(ctx, threads, leases, (principal, request) => host.send(principal, request));
  const turns = createTurns(ctx, threads, subThreads);
  const decisions = decisionsOnUse(ctx, threads, leases, turns);
  const ratings = feedbackOnUse(ctx, threads, leases);
  const versions = createVersions(threads, leases, turns);
  const elicitations = elicitationsOnUse(threads, leases, options.elicitationWaitMs !== undefined ? { waitMs: options.elicitationWaitMs } : {});
  const unhook = leases.listen(followers.pull);
  const { busy } = leases;

  /** One request on the thread, counted busy: a one-event change the page hears in the click's task. */
  const touch = (principal: Principal, threadId: string, work: (t: LiveThread) => void) =>
    threads.withThread(principal, threadId, (t) => busy(t, async () => work(t)));

  const provider = async (action: 'connect' | 'disconnect', principal: Principal, { threadId, provider: name }: { threadId: string; provider: string }) => {
    const hook = options.providers?.[action];
    if (!hook) throw new Error(`This workspace cannot ${action} ${name}: the host passed no providers.${action} hook.`);
    await hook(name, { threadId, user: principal.user });
  };

  const sweep = idleMs > 0 && Number.isFinite(idleMs) ? setInterval(() => host.evictIdle(), Math.max(1_000, idleMs / 2)) : null;
  (sweep as { unref?: () => void } | null)?.unref?.();

  const host: ThreadHost = {
    registry: ctx.registry,
    driver: ctx.driver,
    alignment: ctx.alignment,
    anticipation: ctx.anticipation,
    events: store,
    get liveThreads() {
      return threads.size;
    },
    send(principal, request) {
      if (request.skill !== undefined && !SKILL_NAME.test(request.skill)) return Promise.reject(new TypeError(`skill must be a skill's slash name, such as /summarize (got "${request.skill}").`));
      return versions.send(principal, request);
    },
    regenerate: versions.regenerate,
    showVersion: versions.showVersion,
    invoke(principal, request) {
      return threads.withThread(principal, request.threadId, (t) => busy(t, () => decisions.invoke(t, principal, request)));
    },
    requestApproval(principal, request) {
      return threads.withThread(principal, request.threadId, (t) => busy(t, () => decisions.requestApproval(t, request)));
    },
    async cancel(principal, { threadId, id }) {
      const t = await threads.opened(principal, threadId, false);
      const controller = t?.running.get(id);
      controller?.abort(new Error('Cancelled by the user.'));
      if (controller || !t || !coordination) return controller !== undefined;
      // Running on another instance: the one holding the thread's lease hears the request.
      const holder = await coordination.holder(t.key);
      if (!holder || holder === coordination.instance) return false;
      await coordination.requestCancel(t.key, id);
      return true;
    },
    // A running MCP tool's question (an elicitation row) is answered here; every other row goes on to the decisions.
    decide: (principal, request) => elicitations.decide(principal, request, decisions.decide),
    elicit: elicitations.ask,
    feedback: ratings.feedback,
    feedbackOf: ratings.feedbackOf,
    setView: (principal, { threadId, view }) => touch(principal, threadId, (t) => void t.emit({ type: 'view.changed', view })),
    setComposer: (principal, { threadId, composer }) => touch(principal, threadId, (t) => void t.emit({ type: 'composer.changed', composer })),
    skills: ctx.skillsOf,
    async query(principal, { q }) {
      return ctx.skillsOf(principal).query(q);
    },
    async saveSkill(principal, { threadId, id, description, instructions, scope }) {
      const node = await ctx.skillsOf(principal).persist({ id, description, instructions, ...(scope ? { scope } : {}) }, principal);
      await touch(principal, threadId, (t) => void t.emit({ type: 'skill.saved', path: node.path, name: node.name }));
      return node;
    },
    runSkillThread: subThreads.runSkillThread,
    connect: (principal, request) => provider('connect', principal, request),
    disconnect: (principal, request) => provider('disconnect', principal, request),
    subscribe: (principal, threadId, listener, since = 0) => followers.subscribe(principal, threadId, listener, since),
    async exists(principal, threadId) {
      const ref = ctx.refOf(principal, threadId);
      return threads.get(threadKey(ref))?.lastSeq ? true : (await store.info(ref)) !== null;
    },
    async lastSeq(principal, threadId) {
      const ref = ctx.refOf(principal, threadId);
      const t = threads.get(threadKey(ref));
      // Without the lease, another instance may have written since.
      if (t && (!coordination || t.leased)) return t.lastSeq;
      return (await store.info(ref))?.lastSeq ?? 0;
    },
    async deleteThread(principal, threadId) {
      const index = store.threads;
      if (!index) throw new Error('This workspace keeps no thread list, so it cannot delete threads: give the host an event store with one.');
      const ref = ctx.refOf(principal, threadId);
      const t = threads.get(threadKey(ref));
      if (!t) return index.remove(ref);
      for (const controller of t.running.values()) controller.abort(new Error('The thread was deleted.'));
      const quiet = await settled(t, 5_000);
      threads.drop(t.key);
      const removed = await index.remove(ref);
      if (!quiet) {
        // Work that ignored its signal for that long is left to end; whatever it writes then goes too.
        void settled(t, Infinity).then(async () => {
          threads.drop(t.key);
          await index.remove(ref);
        });
      }
      await leases.releaseIfQuiet(t);
      return removed;
    },
    recover: () => threads.recover(busy),
    evictIdle: () => threads.evictIdle(idleMs),
    async close(reason = 'The workspace is shutting down.') {
      if (sweep) clearInterval(sweep);
      for (const off of unhook) off();
      const live = threads.all();
      for (const t of live) for (const controller of t.running.values()) controller.abort(new Error(reason));
      // Bounded: a handler that ignores its signal does not hold the shutdown forever.
      const settled = Promise.all(live.map((t) => t.queue.then(() => t.writing)));
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 5_000).unref?.())]);
      await followers.settled();
    },
  };
  return host;
}
