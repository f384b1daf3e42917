import type { FeedbackRating } from '../events';
import type { AssistantRow, Feedback } from '../fold';
import type { Principal } from '../principal';
import type { HostContext } from './hostContext';
import { FeedbackError, type FeedbackChange, type FeedbackEntry, type HostFeedback } from './hostTypes';
import type { Leases } from './leases';
import { stateOf, type LiveThreads } from './liveThread';

/** The host's part that records ratings of replies and tells the host's hook of each change. */
export interface FeedbackPart {
  feedback(principal: Principal, request: HostFeedback): Promise<void>;
  feedbackOf(principal: Principal, threadId: string): Promise<FeedbackEntry[]>;
}

const unknownReply = (id: string) => new FeedbackError('unknown_message', `There is no reply "${id}" in this thread to rate.`);

const same = (before: Feedback | undefined, rating: FeedbackRating | null, comment: string | undefined) =>
  rating === null ? before === undefined : before?.rating === rating && before.comment === comment;

export function createFeedback(ctx: HostContext, threads: LiveThreads, leases: Leases): FeedbackPart {
  const replyOf = (rows: readonly { kind: string; id: string }[], id: string) =>
    rows.find((r): r is AssistantRow => r.kind === 'assistant' && r.id === id);

  return {
    async feedback(principal, { threadId, messageId, rating, comment }) {
      const t = await threads.opened(principal, threadId, false);
      if (!t) throw unknownReply(messageId);
      const note = rating === null ? undefined : comment?.trim() || undefined;
      const change = await leases.busy(t, async (): Promise<FeedbackChange | null> => {
        const row = replyOf(stateOf(t).rows, messageId);
        // A row the fold made from a rating alone has no text: no reply was written under that id.
        if (!row || row.seq === undefined) throw unknownReply(messageId);
        if (row.status === 'streaming') throw new FeedbackError('still_streaming', 'This reply is still being written: rate it once it is done.');
        if (same(row.feedback, rating, note)) return null;
        t.emit({ type: 'message.feedback', message_id: messageId, rating, ...(note ? { comment: note } : {}) });
        return {
          principal,
          threadId,
          messageId,
          rating,
          ...(note ? { comment: note } : {}),
          previous: row.feedback ?? null,
          text: row.text,
          ...(row.driver ? { model: row.driver } : {}),
        };
      });
      if (!change) return;
      // The hook hears a change once it is stored, so what it reads back matches.
      await t.writing;
      const hook = ctx.options.onFeedback;
      if (!hook) return;
      try {
        await hook(change);
      } catch (error) {
        // The user's rating is kept either way; a failing hook is the host's to fix, not the user's.
        console.error(`chatsurface: onFeedback failed for reply "${messageId}"; the rating is kept in the thread.`, error);
      }
    },
    async feedbackOf(principal, threadId) {
      const t = await threads.opened(principal, threadId, false);
      if (!t) return [];
      return leases.busy(t, async () =>
        stateOf(t)
          .rows.filter((r): r is AssistantRow & { feedback: Feedback } => r.kind === 'assistant' && r.feedback !== undefined && r.seq !== undefined)
          .map((r) => ({ messageId: r.id, ...r.feedback, ...(r.driver ? { model: r.driver } : {}) })),
      );
    },
  };
}
