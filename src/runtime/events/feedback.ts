import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';
import { FEEDBACK_COMMENT_MAX, FEEDBACK_RATINGS, type FeedbackRating } from './plain';

ensureEnglishMessages();

export { FEEDBACK_COMMENT_MAX, FEEDBACK_RATINGS, type FeedbackRating };

export const FeedbackRatingSchema = z.nullable(z.enum(FEEDBACK_RATINGS));
export const FeedbackCommentSchema = z.string().check(z.maxLength(FEEDBACK_COMMENT_MAX));

/** A reply's feedback as the user left it last: the event with the highest seq wins; `rating: null` is withdrawn. */
export const MessageFeedbackSchema = z.object({
  type: z.literal('message.feedback'),
  ...stamp,
  message_id: id,
  rating: FeedbackRatingSchema,
  comment: z.optional(FeedbackCommentSchema),
});

export type MessageFeedback = z.infer<typeof MessageFeedbackSchema>;
