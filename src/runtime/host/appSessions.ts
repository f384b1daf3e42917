import { type CapabilityResult } from '../envelope';
import { errorResult } from '../results';
import type { ThreadEvent } from '../events';
import { createId } from '../ids';
import { APP_APPROVAL_PREFIX } from '../mcpApp';
import { spaceOf, type Principal } from '../principal';
import type { ThreadHost } from './hostTypes';

/**
 * Approval of an MCP App's own tool calls, once per app session: the first
 * call a view makes of a tool that needs approval puts one approval row in
 * the thread and waits for the user; approved, the view's later calls of that
 * tool run without asking until the view is closed (its session ends), and
 * while the row waits they are answered at once, in words, without a second
 * row. Browser-safe: no DOM, no node:*.
 */

export { APP_APPROVAL_PREFIX };
export { withAppApprovals } from './appApprovals';

/** Sessions remembered at most (a few numbers each); the least recently used are forgotten first (their next call asks again). */
const MAX_SESSIONS = 10_000;

/** Which view asks, and in which session of it (a new one each time the view is opened). */
export interface AppSessionRef {
  threadId: string;
  invocationId: string;
  /** The view's session, as the card's frame names it; without one, the card's view is one session. */
  session?: string;
}

/** The tool an app asked for, and the words for the row. */
export interface AppSessionCall {
  capability: string;
  title: string;
  /** The view's name in words, e.g. "Get Time (clock)". */
  app: string;
  args: unknown;
}

interface Grant {
  approvalId: string;
  /** The thread's last seq before the row was asked for: its decision comes after. */
  since: number;
  state: 'pending' | 'approved' | 'denied';
  /** A call waits on the row's decision right now. */
  watched: boolean;
}

export interface AppSessions {
  /**
   * Null when the call may run (this session's approval of the tool is given);
   * otherwise the answer the app gets instead, in words, and nothing runs.
   */
  admit(principal: Principal, ref: AppSessionRef, call: AppSessionCall): Promise<CapabilityResult | null>;
}

/**
 * @param waitMs how long the first call waits for the user's decision before it is answered "still waiting"
 *   (under the 60 s an app's MCP request waits by default).
 */
export function createAppSessions(host: ThreadHost, { waitMs = 50_000 }: { waitMs?: number } = {}): AppSessions {
  const grants = new Map<string, Grant>();
  const remember = (key: string, grant: Grant) => {
    grants.delete(key);
    grants.set(key, grant);
    if (grants.size > MAX_SESSIONS) grants.delete(grants.keys().next().value!);
  };
  const decisionIn = (events: readonly ThreadEvent[], approvalId: string) => {
    const resolved = events.find((e) => e.type === 'approval.resolved' && e.approval_id === approvalId);
    return resolved?.type === 'approval.resolved' ? resolved.decision : undefined;
  };

  /**
   * Waits for the row's decision through the thread's own event stream (so a decision made on
   * another instance counts too), marking the grant as soon as it comes; `stop` ends the wait.
   */
  const watch = (principal: Principal, threadId: string, grant: Grant) => {
    let off: (() => void) | undefined;
    let finish: () => void = () => undefined;
    const decided = new Promise<void>((resolve) => {
      let ended = false;
      finish = () => {
        if (ended) return;
        ended = true;
        clearTimeout(timer);
        off?.();
        grant.watched = false;
        resolve();
      };
      const timer = setTimeout(finish, waitMs);
      off = host.subscribe(principal, threadId, (event) => {
        if (event.type !== 'approval.resolved' || event.approval_id !== grant.approvalId) return;
        grant.state = event.decision;
        finish();
      }, grant.since);
      if (ended) off();
    });
    return { decided, stop: () => finish() };
  };

  return {
    async admit(principal, ref, call) {
      const key = [spaceOf(principal), principal.user, ref.threadId, ref.invocationId, ref.session ?? '', call.capability].join('\u0000');
      let grant = grants.get(key);
      if (grant?.state === 'pending' && !grant.watched) {
        // Nobody waits on it any more: the decision, if there is one yet, is in the log.
        const events = await host.events.read({ user: principal.user, space: spaceOf(principal), id: ref.threadId }, grant.since);
        grant.state = decisionIn(events, grant.approvalId) ?? 'pending';
      }
      if (grant) {
        remember(key, grant);
        if (grant.state === 'approved') return null;
        if (grant.state === 'denied') return errorResult(declined(call));
        return errorResult(stillWaiting(call));
      }
      grant = { approvalId: createId(APP_APPROVAL_PREFIX.slice(0, -1)), since: await host.lastSeq(principal, ref.threadId), state: 'pending', watched: true };
      remember(key, grant);
      const wait = watch(principal, ref.threadId, grant);
      try {
        await host.requestApproval(principal, {
          threadId: ref.threadId,
          id: grant.approvalId,
          capability: call.capability,
          args: call.args,
          reason: `The ${call.app} app asks to run ${call.title} from inside its card. Approved, the app may run it again without asking until it is closed; nothing it runs is added to the chat.`,
        });
      } catch (error) {
        // No row was shown: nothing to wait for, and the next call asks again.
        wait.stop();
        grants.delete(key);
        throw error;
      }
      await wait.decided;
      if (grant.state === 'approved') return null;
      return errorResult(grant.state === 'denied' ? declined(call) : stillWaiting(call));
    },
  };
}

const declined = (call: AppSessionCall) =>
  `You declined ${call.title} for this app, so it was not run. Close the app and open it again to be asked again.`;
const stillWaiting = (call: AppSessionCall) =>
  `${call.title} waits for your approval in the chat, so it was not run. Once you approve, the app's calls of it run.`;
