import { nodeBefore, type UserRow } from '../fold';
import type { Principal } from '../principal';
import { VersionError, type HostRegenerate, type HostTurn, type HostVersion } from './hostTypes';
import type { Leases } from './leases';
import { enqueue, stateOf, type LiveThread, type LiveThreads } from './liveThread';
import type { TurnSend, Turns } from './turns';

/**
 * Versions (issue 40 item 1): an edit (a send with `edits`), a regeneration and a switch. Each
 * checks the fold first (only a message shown in the principal's thread can be edited or answered
 * again, only a version of a shown group shown); an edit and a regeneration stop the turn that
 * runs and queue after it; a switch is refused while a turn runs. The log stays append-only:
 * the turn writes the new version's first event (runtime/host/turns.ts), the fold holds the tree.
 */
export interface VersionsPart {
  send(principal: Principal, request: HostTurn): Promise<void>;
  regenerate(principal: Principal, request: HostRegenerate): Promise<void>;
  showVersion(principal: Principal, request: HostVersion): Promise<void>;
}

const unknownMessage = (id: string, what: string) => new VersionError('unknown_message', `There is no message "${id}" shown in this thread to ${what}.`);

/** The shown user message with this id, and its place. */
function shownMessage(t: LiveThread, id: string): { row: UserRow; index: number } | null {
  const { rows } = stateOf(t);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i]!;
    if (row.kind === 'user' && row.id === id) return { row, index: i };
  }
  return null;
}

/** Stops the turn that runs (an edit or a regeneration replaces what it was writing). */
function stopTurn(t: LiveThread, why: string): void {
  const active = stateOf(t).activeTurn;
  if (active) t.running.get(active)?.abort(new Error(why));
}

export function createVersions(threads: LiveThreads, leases: Leases, turns: Turns): VersionsPart {
  const { busy } = leases;
  const queued = (principal: Principal, threadId: string, why: string, request: (t: LiveThread) => TurnSend) =>
    threads.withThread(principal, threadId, (t) => {
      stopTurn(t, why);
      return busy(t, () => enqueue(t, () => turns.send(t, principal, request(t))));
    });

  return {
    send(principal, request) {
      const { edits, ...rest } = request;
      if (edits === undefined) return threads.withThread(principal, request.threadId, (t) => busy(t, () => enqueue(t, () => turns.send(t, principal, rest))));
      return queued(principal, request.threadId, 'Stopped: the user edited a message.', (t) => {
        const shown = shownMessage(t, edits);
        if (!shown) throw unknownMessage(edits, 'edit');
        const { rows, versions } = stateOf(t);
        return { ...rest, edits: { row: shown.row, before: nodeBefore(rows, versions, shown.index) } };
      });
    },
    regenerate(principal, { threadId, messageId }) {
      return queued(principal, threadId, 'Stopped: the user asked for a new reply.', (t) => {
        const shown = shownMessage(t, messageId);
        if (!shown) throw unknownMessage(messageId, 'answer again');
        return { threadId, text: shown.row.text, ...(shown.row.skill !== undefined ? { skill: shown.row.skill } : {}), again: messageId };
      });
    },
    showVersion(principal, { threadId, part, messageId, version }) {
      return threads.withThread(principal, threadId, (t) =>
        busy(t, async () => {
          const state = stateOf(t);
          if (state.activeTurn) throw new VersionError('busy', 'A reply is being written: stop it or let it finish, then switch versions.');
          const groups = state.versions?.groups ?? {};
          const key = `${part === 'message' ? 'u' : 'r'}:${messageId}`;
          const group = Object.hasOwn(groups, key) ? groups[key] : undefined;
          // Only a group on screen: a message shown (any of its versions), or the reply to one.
          const onScreen = part === 'message' ? state.rows.some((r) => r.kind === 'user' && (r.version_of ?? r.id) === messageId) : shownMessage(t, messageId) !== null;
          if (!group || !onScreen || !group.ids.includes(version)) throw new VersionError('unknown_version', `There is no version "${version}" of that ${part} shown in this thread.`);
          if (group.chosen === version) return;
          t.emit({ type: 'version.selected', part, message_id: messageId, version });
        }),
      );
    },
  };
}
