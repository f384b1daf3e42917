import { MessageActions } from './MessageActions';
import { MessageComment } from './MessageComment';
import { MessageCopy } from './MessageCopy';
import { MessageRating } from './MessageRating';

/**
 * The actions under a reply, as parts a host recomposes: `Actions` (the group, with all of them
 * by default), `Copy`, `Rating` (one per rating) and `Comment`.
 * @example
 * <Message.Actions row={reply}>
 *   <Message.Copy />
 *   <Message.Rating rating="bad" />
 *   <Message.Comment />
 * </Message.Actions>
 */
export const Message = {
  Actions: MessageActions,
  Copy: MessageCopy,
  Rating: MessageRating,
  Comment: MessageComment,
};
