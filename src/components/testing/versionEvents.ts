import type { DriverInfo, ThreadEventInput } from '../../runtime/events';

/** Events of a thread with versions, stamped as the host stamps them (for tests and stories). */

/** A user's message following `branch` (`root`, or a reply's id); with `versionOf`, an edit of that message. */
export const userMessage = (id: string, text: string, branch: string, versionOf?: string): ThreadEventInput => ({
  type: 'message.created',
  message_id: id,
  role: 'user',
  text,
  branch,
  ...(versionOf ? { version_of: versionOf } : {}),
});

/** A finished reply filed under `branch` (`<message id>.reply`, or a regenerated reply's id). */
export const assistantReply = (id: string, text: string, branch: string, driver?: DriverInfo): ThreadEventInput[] => [
  { type: 'message.created', message_id: id, role: 'assistant', text, branch, ...(driver ? { driver } : {}) },
  { type: 'message.done', message_id: id },
];
