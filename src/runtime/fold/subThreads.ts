import type { EventOf } from '../events';
import type { Draft } from './draft';
import type { SubThreadRow } from './rows';

/**
 * Sub-threads: in the parent, the link to a child (running until its outcome) and, once it
 * ended, its summary as a row of its own; in the child, the way back to its parent.
 */
export function foldSubThread(d: Draft, event: EventOf<'subthread.opened' | 'subthread.done' | 'subthread.linked'>): void {
  switch (event.type) {
    case 'subthread.opened': {
      const i = d.find(event.subthread_id, 'subthread');
      const prior = d.row(i, 'subthread');
      // A done that arrived first keeps its outcome.
      const row: SubThreadRow = { kind: 'subthread', id: event.subthread_id, skill: event.skill, title: event.title, task: event.task, status: prior?.status ?? 'running' };
      if (prior?.summary !== undefined) row.summary = prior.summary;
      if (event.turn_id) row.turn_id = event.turn_id;
      return d.put(i, row);
    }
    case 'subthread.done': {
      const i = d.find(event.subthread_id, 'subthread');
      const prior = d.row(i, 'subthread');
      const title = prior?.title || event.title || 'Sub-thread';
      const row: SubThreadRow = prior
        ? { ...prior, status: event.outcome, summary: event.summary }
        : { kind: 'subthread', id: event.subthread_id, skill: '', title, task: '', status: event.outcome, summary: event.summary };
      d.put(i, row);
      // One summary per sub-thread: a second done (a replay under another seq) adds none.
      if (d.find(event.subthread_id, 'subthread_summary') === -1) {
        d.add({ kind: 'subthread_summary', id: event.subthread_id, title, outcome: event.outcome, summary: event.summary });
      }
      return;
    }
    case 'subthread.linked':
      if (d.find(event.parent_id, 'subthread_origin') !== -1) return;
      return d.add({ kind: 'subthread_origin', id: event.parent_id, skill: event.skill, title: event.title, task: event.task });
    default:
      return event satisfies never;
  }
}
