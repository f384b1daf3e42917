import { useCallback, useId, useMemo, useState, type ComponentPropsWithRef } from 'react';
import type { FeedbackRating } from '../../runtime/events';
import type { AssistantRow } from '../../runtime/fold';
import { useOptionalChatSurface } from '../../hooks/context';
import { noteUserAction } from '../../hooks/userAction';
import { canRegenerateOn, pickerKey, useVersionsUi } from '../../hooks/useVersions';
import { firstReplyOf, replyVersions } from '../../runtime/fold';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';
import { MessageActionsContext, type MessageActionsContextValue } from './context';
import { MessageComment } from './MessageComment';
import { MessageCopy } from './MessageCopy';
import { MessageRating } from './MessageRating';
import { MessageRegenerate } from './MessageRegenerate';

export interface MessageActionsProps extends ComponentPropsWithRef<'div'> {
  /** The reply the actions are for. */
  row: AssistantRow;
  /**
   * The user's message whose reply this row starts (it is the first assistant row after it):
   * then Regenerate shows, when the workspace regenerates. `MessageRow` passes it in a transcript.
   */
  replyTo?: string | null;
}

/**
 * The actions under a finished reply: Copy (its markdown); on the row that starts a reply
 * (`replyTo`), with a workspace that regenerates, Regenerate; with a workspace that takes
 * feedback, "Good response" / "Bad response" toggles (`aria-pressed`) and a comment box that opens
 * after a rating. Without children it shows all of them; a host recomposes it from
 * `Message.Copy`, `Message.Regenerate`, `Message.Rating` and `Message.Comment`. `data-state` is
 * the reply's rating (`good`, `bad` or `none`).
 * @example
 * <Message.Actions row={reply} />
 * <Message.Actions row={reply} replyTo="u2" />
 * <Message.Actions row={reply}><Message.Copy /></Message.Actions>
 */
export function MessageActions({ row, replyTo = null, children, ...props }: MessageActionsProps) {
  const messages = useMessages();
  const m = messages.messageActions;
  const surface = useOptionalChatSurface();
  const ui = useVersionsUi();
  const canRate = Boolean(surface?.workspace.feedback);
  const canRegenerate = replyTo !== null && canRegenerateOn(surface?.workspace);
  const [regenerating, setRegenerating] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [commenting, setCommenting] = useState(false);
  const [said, setSaid] = useState('');
  const base = useId();

  const announce = useCallback((text: string) => {
    // The same words twice in a row are announced again: the region is emptied first.
    setSaid('');
    queueMicrotask(() => setSaid(text));
  }, []);

  const rate = useCallback(
    (rating: FeedbackRating | null, comment?: string) => {
      const feedback = surface?.workspace.feedback;
      if (!surface || !feedback) return;
      setSaving(true);
      setError(null);
      const request = { threadId: surface.threadId, messageId: row.id, rating, ...(comment ? { comment } : {}) };
      let promise: Promise<void>;
      try {
        promise = Promise.resolve(feedback.call(surface.workspace, request));
      } catch (reason) {
        promise = Promise.reject(reason);
      }
      promise.then(
        () => {
          setSaving(false);
          announce(rating === null ? m.withdrawn : m.thanks);
        },
        (reason: unknown) => {
          setSaving(false);
          setCommenting(false);
          setError(m.notSaved(reason instanceof Error ? reason.message : String(reason)));
        },
      );
    },
    [surface, row.id, announce, m],
  );

  const regenerate = useCallback(() => {
    const call = surface?.workspace.regenerate;
    if (!surface || !call || replyTo === null || regenerating) return;
    setRegenerating(true);
    setError(null);
    noteUserAction(surface.store);
    // The new reply takes this one's place: its picker's Previous (back to this one) takes focus when it shows.
    const shown = replyVersions(surface.store.getState().thread.versions, replyTo)?.version ?? firstReplyOf(replyTo);
    ui.setState({ focus: { target: 'previous', key: pickerKey({ part: 'reply', messageId: replyTo }), force: false, from: shown } });
    let promise: Promise<void>;
    try {
      promise = Promise.resolve(call.call(surface.workspace, { threadId: surface.threadId, messageId: replyTo }));
    } catch (reason) {
      promise = Promise.reject(reason);
    }
    promise.then(
      () => setRegenerating(false),
      (reason: unknown) => {
        setRegenerating(false);
        setError(m.notRegenerated(reasonOf(reason, messages)));
      },
    );
  }, [surface, replyTo, regenerating, ui, m, messages]);

  const value = useMemo<MessageActionsContextValue>(
    () => ({ row, canRate, rate, saving, error, commenting, setCommenting, announce, ratingId: (rating) => `${base}-${rating}`, replyTo, canRegenerate, regenerate, regenerating }),
    [row, canRate, rate, saving, error, commenting, announce, base, replyTo, canRegenerate, regenerate, regenerating],
  );

  return (
    <MessageActionsContext.Provider value={value}>
      <div role="group" aria-label={m.label} {...props} data-part="message-actions" data-state={row.feedback?.rating ?? 'none'}>
        {children ?? (
          <>
            <MessageCopy />
            <MessageRegenerate />
            <MessageRating rating="good" />
            <MessageRating rating="bad" />
            <MessageComment />
          </>
        )}
        {error ? (
          <span role="alert" data-part="message-actions-error">
            {error}
          </span>
        ) : null}
        <span aria-live="polite" aria-atomic="true" className="cs-visually-hidden" data-part="message-actions-announcement">
          {said}
        </span>
      </div>
    </MessageActionsContext.Provider>
  );
}
MessageActions.displayName = 'Message.Actions';
