import type { EventOf } from '../events';
import { parsePartialJson } from '../partialJson';
import type { Draft } from './draft';
import type { InvocationRow } from './rows';

/**
 * A call's arguments while the model writes them: the card of the invocation it becomes, queued,
 * with the JSON text so far (`argsText`). `capability.started` (or queued) takes the card over
 * and clears it; a piece arriving after that changes nothing. `dropped` ends the card of a call
 * that did not run: cancelled, with the reason, and the arguments as far as they were written.
 */
export function foldInvocationArgs(d: Draft, event: EventOf<'invocation.args.delta'>): void {
  const at = d.find(event.invocation_id, 'invocation');
  const prior = d.row(at, 'invocation');
  // Started, queued or ended already (or its end arrived first): the arguments it has are the final ones.
  if (prior && (prior.argsText === undefined || prior.seqs?.started !== undefined || prior.seqs?.queued !== undefined || prior.seqs?.ended !== undefined)) return;
  if (event.dropped) {
    if (!prior) return;
    const { argsText, ...rest } = prior;
    d.put(at, {
      ...rest,
      args: parsePartialJson(argsText!),
      state: 'cancelled',
      error: { code: 'not_run', message: event.dropped },
      endedAt: event.ts,
      seqs: { ...prior.seqs, ended: event.seq },
    });
    return;
  }
  const row: InvocationRow = prior
    ? { ...prior, argsText: prior.argsText + event.delta }
    : {
        kind: 'invocation',
        id: event.invocation_id,
        capability: event.capability,
        title: event.title ?? event.capability,
        args: undefined,
        state: 'queued',
        output: '',
        outputTruncated: false,
        call_id: event.call_id,
        argsText: event.delta,
      };
  if (!prior && event.turn_id) row.turn_id = event.turn_id;
  d.put(at, row);
}
