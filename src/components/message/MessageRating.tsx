import type { ComponentPropsWithRef } from 'react';
import type { FeedbackRating } from '../../runtime/events';
import { useMessages } from '../messages/context';
import { useMessageActions } from './context';

export interface MessageRatingProps extends Omit<ComponentPropsWithRef<'button'>, 'value'> {
  /** Which rating the button gives. */
  rating: FeedbackRating;
}

/**
 * A toggle that rates the reply "Good response" or "Bad response" (`aria-pressed`); pressing it
 * again withdraws the rating. A new rating opens the comment box. Shows nothing when the
 * workspace takes no feedback.
 * @example
 * <Message.Rating rating="good" />
 */
export function MessageRating({ rating, children, onClick, ...props }: MessageRatingProps) {
  const m = useMessages().messageActions;
  const { row, canRate, rate, saving, setCommenting, ratingId } = useMessageActions('Rating');
  if (!canRate) return null;
  const pressed = row.feedback?.rating === rating;
  const label = rating === 'good' ? m.good : m.bad;
  return (
    <button
      type="button"
      id={ratingId(rating)}
      {...props}
      data-part="message-rating"
      data-rating={rating}
      data-state={pressed ? 'on' : 'off'}
      aria-pressed={pressed}
      aria-label={label}
      title={label}
      // Not `disabled` while a rating is saved: a disabled button loses focus, and the comment box hands it back here.
      aria-disabled={saving || undefined}
      onClick={(event) => {
        onClick?.(event);
        if (event.defaultPrevented || saving) return;
        rate(pressed ? null : rating);
        setCommenting(!pressed);
      }}
    >
      {children ?? <span aria-hidden="true">{rating === 'good' ? '👍' : '👎'}</span>}
    </button>
  );
}
MessageRating.displayName = 'Message.Rating';
