import { deferred } from '../deferred/deferred';
import type { MessageFilesProps } from '../attachments/MessageFiles';

/** What stands in the files' place while their code loads: one line of the list's height, so nothing moves when it comes. */
const placeholder = <div data-part="message-files" data-state="loading" aria-hidden="true" />;

const part = deferred<MessageFilesProps>(() => import('../attachments/MessageFiles').then((m) => m.MessageFiles), 'ChatSurface.MessageFilesSlot', placeholder, 'the attached files');

/**
 * The files a message of the user's carries (`MessageFiles`: thumbnails and download chips), its
 * code loaded on first use: only a thread with attachments fetches it.
 * @example
 * {row.kind === 'user' && row.attachments ? <MessageFilesSlot files={row.attachments} /> : null}
 */
export const MessageFilesSlot = part.Part;
