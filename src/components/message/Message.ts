import { MessageActions } from './MessageActions';
import { MessageComment } from './MessageComment';
import { MessageCopy } from './MessageCopy';
import { MessageEdit } from './MessageEdit';
import { MessageEditor } from './MessageEditor';
import { MessageRating } from './MessageRating';
import { MessageRegenerate } from './MessageRegenerate';

/**
 * The actions on a message, as parts a host recomposes. Under a reply: `Actions` (the group, with
 * all of them by default), `Copy`, `Regenerate` (on the row that starts a reply), `Rating` (one
 * per rating) and `Comment`. On a message of the user's: `Edit` (the button) and `Editor` (the
 * message open for editing in place). Their versions are `BranchPicker`'s.
 * @example
 * <Message.Actions row={reply} replyTo="u2">
 *   <Message.Copy />
 *   <Message.Regenerate />
 *   <Message.Rating rating="bad" />
 *   <Message.Comment />
 * </Message.Actions>
 * <Message.Edit row={userRow} />
 * <Message.Editor row={userRow} />
 */
export const Message = {
  Actions: MessageActions,
  Copy: MessageCopy,
  Regenerate: MessageRegenerate,
  Rating: MessageRating,
  Comment: MessageComment,
  Edit: MessageEdit,
  Editor: MessageEditor,
};
