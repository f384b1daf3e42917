import type { EventOf } from '../events';
import { readCancelled } from '../events/plain';
import type { Draft } from './draft';
import { own, withMax } from './records';
import { failStreamingMessages } from './messages';

/** A turn's start, end and error: which turn runs (Stop offered), and the error's row. */
export function foldTurn(d: Draft, event: EventOf<'turn.started' | 'turn.done' | 'turn.error'>): void {
  switch (event.type) {
    case 'turn.started': {
      if (event.seq <= d.next.lastTurnStartedSeq) return; // an earlier turn, arriving late
      d.next.lastTurnStartedSeq = event.seq;
      const doneAt = own(d.next.seqs.doneTurns, event.turn_id) ?? 0;
      d.next.activeTurn = doneAt > event.seq ? null : event.turn_id;
      return d.touch();
    }
    case 'turn.done': {
      if (d.next.activeTurn === event.turn_id && event.seq > d.next.lastTurnStartedSeq) {
        d.next.activeTurn = null;
        d.touch();
      }
      // Its start (or a later start of the same turn id) may still arrive.
      if (d.gapBelow(event.seq)) {
        const doneTurns = withMax(d.next.seqs.doneTurns, event.turn_id, event.seq);
        if (doneTurns) d.seqs().doneTurns = doneTurns;
      }
      return;
    }
    case 'turn.error': {
      if (event.turn_id) {
        failStreamingMessages(d, event.turn_id, event.seq);
        if (d.gapBelow(event.seq)) {
          const turnErrors = withMax(d.next.seqs.turnErrors, event.turn_id, event.seq);
          if (turnErrors) d.seqs().turnErrors = turnErrors;
        }
      }
      return d.add({
        kind: 'error',
        id: `turn-error-${event.seq}`,
        code: readCancelled(event.code),
        message: event.message,
        recoverable: event.recoverable,
        ...(event.turn_id ? { turn_id: event.turn_id } : {}),
      });
    }
    default:
      return event satisfies never;
  }
}
