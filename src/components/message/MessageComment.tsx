import { useEffect, useId, useRef, useState, type ComponentPropsWithRef } from 'react';
import { FEEDBACK_COMMENT_MAX } from '../../runtime/events/plain';
import { useMessages } from '../messages/context';
import { useMessageActions } from './context';

export type MessageCommentProps = ComponentPropsWithRef<'form'>;

/**
 * The optional comment on a rating: opens after "Good response" or "Bad response" with the
 * comment left before, if any. "Send feedback" saves it with the rating; "Skip" or Escape closes
 * it and keeps the rating; focus goes back to the rating button.
 * @example
 * <Message.Comment />
 */
export function MessageComment({ onSubmit, ...props }: MessageCommentProps) {
  const m = useMessages().messageActions;
  const { row, canRate, commenting, setCommenting, rate, saving, ratingId } = useMessageActions('Comment');
  const rating = row.feedback?.rating;
  const [text, setText] = useState(row.feedback?.comment ?? '');
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const open = canRate && commenting && rating !== undefined;

  useEffect(() => {
    if (!open) return;
    setText(row.feedback?.comment ?? '');
    box.current?.focus();
    // Opened for this rating: a comment saved meanwhile does not reset what is being typed.
  }, [open, rating]);

  if (!open) return null;
  const close = () => {
    setCommenting(false);
    document.getElementById(ratingId(rating))?.focus();
  };
  return (
    <form
      {...props}
      data-part="message-comment"
      aria-label={m.commentLabel}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit?.(event);
        const comment = text.trim();
        if (comment && comment !== row.feedback?.comment) rate(rating, comment);
        close();
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        close();
      }}
    >
      <label htmlFor={id}>{m.commentLabel}</label>
      <textarea id={id} ref={box} rows={2} maxLength={FEEDBACK_COMMENT_MAX} value={text} onChange={(event) => setText(event.target.value)} />
      <div data-part="message-comment-buttons">
        <button type="submit" disabled={saving}>
          {m.commentSend}
        </button>
        <button type="button" onClick={close}>
          {m.commentSkip}
        </button>
      </div>
    </form>
  );
}
MessageComment.displayName = 'Message.Comment';
