import type { ElicitationAction, ElicitationClosed, ElicitationValue } from '../events';
import type { ElicitationAnswer, ElicitationAsk } from './elicitationTypes';

export type { ElicitationAnswer, ElicitationAsk } from './elicitationTypes';
import { checkContent, fieldsOf } from '../elicitationFields';
import type { ElicitationRow, Row } from '../fold';
import { createId } from '../ids';
import type { Principal } from '../principal';
import { NothingWaitingError, type HostDecision } from './hostTypes';
import type { Leases } from './leases';
import { stateOf, type LiveThreads } from './liveThread';

/**
 * A running MCP tool's question as a row of the thread whose card ran the tool (MCP elicitation):
 * asked with `elicitation.requested`, answered through the thread's decide path by its principal
 * (`elicitation.answered`), or closed when the call ends or the wait runs out. The question waits
 * in this process; an answer that finds nobody waiting (a restart) closes the row as interrupted.
 */

/** An answer the user cannot send as it is (a field that does not fit): the decide route's 400, in words. */
export class ElicitationAnswerError extends Error {
  override name = 'ElicitationAnswerError';
}

/** How long a question waits for the user before it is closed as timed out. */
export const ELICITATION_WAIT_MS = 10 * 60_000;

export interface Elicitations {
  /**
   * Asks the question in the thread with this key (the running call's `threadKey`) and resolves
   * with the user's answer; `cancel` when the call ends first (`signal`) or the wait runs out.
   * Rejects, in words, when no thread of this host runs under that key (a REST or MCP door's call).
   */
  ask(threadKey: string, ask: ElicitationAsk, signal: AbortSignal): Promise<ElicitationAnswer>;
  /**
   * The decide path for an elicitation row of the principal's thread: `answer` (the form's
   * content as JSON) or `accept` (a page finished) accepts, `deny` declines, `dismiss` cancels.
   * Any other row goes to `next`.
   */
  decide(principal: Principal, request: HostDecision, next: (principal: Principal, request: HostDecision) => Promise<void>): Promise<void>;
}

const ACTIONS: Partial<Record<HostDecision['decision'], ElicitationAction>> = { answer: 'accept', accept: 'accept', deny: 'decline', dismiss: 'cancel' };

export function createElicitations(threads: LiveThreads, leases: Leases, options: { waitMs?: number } = {}): Elicitations {
  const waitMs = options.waitMs ?? ELICITATION_WAIT_MS;
  /** The questions out in this process, by thread key and id: how to hand each its answer. */
  const waiting = new Map<string, (answer: ElicitationAnswer) => void>();

  return {
    ask(threadKey, ask, signal) {
      const t = threads.get(threadKey);
      if (!t) {
        const door = threadKey.includes(':') ? threadKey.split(':')[0] : 'a';
        return Promise.reject(new Error(`"${ask.server}" asked a question during a call made through the ${door} door, outside any chat, so nobody here can answer it.`));
      }
      const id = createId('elicit');
      const slot = `${threadKey}\n${id}`;
      const turnId = ask.invocationId ? rowTurn(stateOf(t).rows, ask.invocationId) : undefined;
      const emitted = leases.busy(t, async () =>
        t.emit({
          type: 'elicitation.requested',
          elicitation_id: id,
          server: ask.server,
          mode: ask.mode,
          message: ask.message,
          ...(ask.tool !== undefined ? { tool: ask.tool } : {}),
          ...(ask.invocationId ? { invocation_id: ask.invocationId } : {}),
          ...(turnId ? { turn_id: turnId } : {}),
          ...(ask.requestedSchema ? { requested_schema: ask.requestedSchema } : {}),
          ...(ask.url !== undefined ? { url: ask.url } : {}),
          ...(ask.host !== undefined ? { host: ask.host } : {}),
        }),
      );
      return emitted.then(
        () =>
          new Promise<ElicitationAnswer>((resolve) => {
          const close = (closed: ElicitationClosed) => {
            if (!waiting.delete(slot)) return;
            void leases.busy(t, async () => t.emit({ type: 'elicitation.answered', elicitation_id: id, action: 'cancel', closed })).catch(() => undefined);
            finish({ action: 'cancel' });
          };
          const timer = setTimeout(() => close('timed_out'), waitMs);
          (timer as { unref?: () => void }).unref?.();
          const onAbort = () => close('call_ended');
          const finish = (answer: ElicitationAnswer) => {
            clearTimeout(timer);
            signal.removeEventListener('abort', onAbort);
            resolve(answer);
          };
          waiting.set(slot, finish);
          if (signal.aborted) onAbort();
          else signal.addEventListener('abort', onAbort, { once: true });
        }),
      );
    },

    async decide(principal, request, next) {
      const t = await threads.opened(principal, request.threadId, false);
      const row = t ? stateOf(t).rows.find((r): r is ElicitationRow => r.kind === 'elicitation' && r.id === request.id) : undefined;
      if (!t || !row) return next(principal, request);
      const action = ACTIONS[request.decision];
      if (!action || (request.decision === 'answer') !== (row.mode === 'form' && action === 'accept')) {
        const takes = row.mode === 'form' ? 'answer (the form), deny or dismiss' : 'accept, deny or dismiss';
        throw new NothingWaitingError(`The question "${row.id}" takes ${takes}, not "${request.decision}".`);
      }
      if (row.status !== 'pending') throw new NothingWaitingError(`The question "${row.id}" was already ${row.status === 'closed' ? 'closed' : 'answered'}.`);
      const answer: ElicitationAnswer = { action };
      if (request.decision === 'answer') answer.content = formContent(row, request.answer);
      await leases.busy(t, async () => {
        // Answered meanwhile (a double click, another tab): the first answer stands.
        const now = stateOf(t).rows.find((r): r is ElicitationRow => r.kind === 'elicitation' && r.id === row.id);
        if (now?.status !== 'pending') throw new NothingWaitingError(`The question "${row.id}" was already ${now?.status === 'closed' ? 'closed' : 'answered'}.`);
        const finish = waiting.get(`${t.key}\n${row.id}`);
        if (!finish) {
          // Nobody waits for it here any more (the process that asked went away): the row says so.
          t.emit({ type: 'elicitation.answered', elicitation_id: row.id, action: 'cancel', closed: 'interrupted' });
          throw new NothingWaitingError(`The call that asked "${row.message}" is no longer running, so the answer cannot reach "${row.server}".`);
        }
        waiting.delete(`${t.key}\n${row.id}`);
        t.emit({ type: 'elicitation.answered', elicitation_id: row.id, action, ...(answer.content ? { content: answer.content } : {}) });
        finish(answer);
      });
    },
  };
}

/** The turn of the card the question belongs to, so the row files under the same reply. */
function rowTurn(rows: readonly Row[], invocationId: string): string | undefined {
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'invocation' && row.id === invocationId) return row.turn_id;
  }
  return undefined;
}

/** The form's answer (JSON of its values), checked against the server's fields: any issue refuses it in words. */
function formContent(row: ElicitationRow, answer: string | undefined): Record<string, ElicitationValue> {
  let content: unknown;
  try {
    content = JSON.parse(answer ?? '');
  } catch {
    throw new ElicitationAnswerError('The answer to a form must be its values as a JSON object, such as {"name":"Ada"}.');
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) throw new ElicitationAnswerError('The answer to a form must be a JSON object of its values.');
  const issues = checkContent(fieldsOf(row.requested_schema).fields, content as Record<string, unknown>);
  if (issues.length) throw new ElicitationAnswerError(`The answer was not sent: ${issues.map((i) => i.message).join(' ')}`);
  return content as Record<string, ElicitationValue>;
}
