import { formatCount, plural } from '../messages/plural';

/** A file's size in words: "820 bytes", "14 KB", "2.4 MB". */
export function sizeWords(bytes: number): string {
  if (bytes < 1024) return `${formatCount('en', bytes)} ${bytes === 1 ? 'byte' : 'bytes'}`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}

/** The words of attachments (`messages.attachments`): the Attach button, the chips before sending, the files in a message. */
export const attachmentWords = {
  /** The button that opens the file chooser (its visible text and name). */
  attach: 'Attach files',
  /** Shown over the surface while files are dragged over it. */
  drop: 'Drop files to attach them',
  /** The chips' list before sending. */
  trayLabel: 'Files to send',
  /** A chip's remove button. */
  remove: (name: string) => `Remove ${name}`,
  /** A file's size, as a chip shows it. */
  size: sizeWords,
  /** The upload's progress bar. */
  uploading: (name: string) => `Uploading ${name}`,
  /** A chip's state after its upload, said after its name. */
  ready: 'ready',
  /** A file the server refused, with its words (the type, the size, the quota). */
  refused: (name: string, why: string) => `${name} was not attached: ${why}`,
  /** Too many files for one message (the server's limit). */
  tooMany: plural('en', { one: 'One message may carry at most # file; remove it first.', other: 'One message may carry at most # files; remove one first.' }),
  /** Why Send waits (said beside the disabled button, and when Enter is pressed). */
  waitUploads: 'Wait for the files to finish uploading, then send.',
  /** Files cannot wait in the queue behind a running reply. */
  waitReply: 'A message with files is sent when the reply ends: press Send again then. Your files stay here.',
  /** The files of a message in the transcript. */
  messageFiles: 'Attached files',
  /** An image's thumbnail: opens it full size. */
  openImage: (name: string) => `Open ${name} full size`,
  /** A file's chip in a message: opens it or downloads it. */
  openFile: (name: string, size: string) => `Download ${name} (${size})`,
  /** The full-size image's dialog. */
  close: 'Close',
  loading: (name: string) => `Loading ${name}…`,
  /** A message's file that cannot be read (removed, or the server is unreachable). */
  unavailable: (name: string, why: string) => `${name} cannot be shown: ${why}`,
};
