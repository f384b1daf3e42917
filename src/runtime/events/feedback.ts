import * as z from 'zod/mini';
import { ensureEnglishMessages } from '../zodLocale';
import { id, stamp } from './fields';

ensureEnglishMessages();

/** The user's verdict on a reply: good or bad, with an optional comment; null withdraws it. */
export const FEEDBACK_RATINGS = ['good', 'bad'] as const;
export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];

/** The longest comment a rating carries (characters). */
export const FEEDBACK_COMMENT_MAX = 2_000;

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
