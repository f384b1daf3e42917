/** A message from a thrown reason: the Error's message, else the value as text. */
type Reason = string;

// The English words of versions (issue 40), kept apart from defaults.ts only for its length;
// they are `defaultMessages.messageEdit` and `defaultMessages.versions`.

/** A message of the user's edited in place: sending it makes a new version of it, with a new reply. */
export const editWords = {
  /** The button on a message of the user's that opens it for editing. */
  edit: 'Edit message',
  /** The accessible name of the editor and its text box. */
  label: 'Edit your message',
  send: 'Send',
  cancel: 'Cancel',
  notSent: (reason: Reason) => `Not sent: ${reason}`,
};

/** The versions of a message (its edits) or of a reply (its regenerations): the picker on it. */
export const versionWords = {
  /** The picker's accessible name. */
  label: 'Versions',
  previous: 'Previous version',
  next: 'Next version',
  /** Which version shows, as the picker writes it ("2 / 3"). */
  count: (index: number, count: number) => `${index} / ${count}`,
  /** The same, for screen readers. */
  position: (index: number, count: number) => `Version ${index} of ${count}`,
  notShown: (reason: Reason) => `That version could not be shown: ${reason}`,
};
