import { createContext, useContext } from 'react';
import type { FeedbackRating } from '../../runtime/events';
import type { AssistantRow } from '../../runtime/fold';

export interface MessageActionsContextValue {
  /** The reply the actions are for. */
  row: AssistantRow;
  /** False outside a surface, or with a workspace that takes no feedback: the rating buttons do not show. */
  canRate: boolean;
  /** Saves a rating (null withdraws it); the comment box opens after a new one. */
  rate(rating: FeedbackRating | null, comment?: string): void;
  /** The rating being saved, while the workspace has not answered. */
  saving: boolean;
  /** Why the last rating was not saved. */
  error: string | null;
  /** The comment box is open (after a rating). */
  commenting: boolean;
  setCommenting(open: boolean): void;
  /** Says something in the group's live region ("Copied", "Thanks for your feedback"). */
  announce(text: string): void;
  /** The id of the rating button the comment box returns focus to. */
  ratingId(rating: FeedbackRating): string;
  /** The user's message whose reply this row starts (Regenerate answers it again), or null. */
  replyTo: string | null;
  /** False outside a surface, with a workspace that does not regenerate, or on a row that does not start a reply. */
  canRegenerate: boolean;
  /** Asks the workspace for a new reply to `replyTo` (a failure shows in the group's alert). */
  regenerate(): void;
  /** A regeneration was asked for and the workspace has not answered. */
  regenerating: boolean;
}

export const MessageActionsContext = createContext<MessageActionsContextValue | null>(null);

export function useMessageActions(part: string): MessageActionsContextValue {
  const value = useContext(MessageActionsContext);
  if (!value) throw new Error(`<Message.${part}> must be used within <Message.Actions>.`);
  return value;
}
