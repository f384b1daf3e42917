// The English words of a running MCP tool's question (elicitation, issue 44); they are
// `defaultMessages.elicitation`, kept apart from defaults.ts only for its length.

/** A running MCP tool's question: a form to fill in, or a page to open, as a row of the chat. */
export const elicitationWords = {
  /** The row's label while it waits. */
  waiting: 'A tool asks you',
  /** The same once answered. */
  label: 'Question from a tool',
  /** The title when the server sent no words. */
  fallback: 'The tool asked for more information.',
  /** Who asks: the server's name, and the tool that runs when it is known. */
  from: (server: string, tool?: string) => (tool ? `From the MCP server "${server}", while ${tool} runs.` : `From the MCP server "${server}".`),
  /** A field that must be filled in, after its label. */
  required: '(required)',
  /** The empty choice of a select. */
  choose: 'Choose…',
  /** The form's buttons. */
  submit: 'Submit',
  decline: 'Decline',
  cancel: 'Cancel',
  /** The form's name, for assistive technology. */
  formLabel: (server: string) => `Answer for ${server}`,
  /** Above the issues of a form that cannot be sent. */
  fix: (count: number) => (count === 1 ? 'One field needs a change before this can be sent:' : `${count} fields need a change before this can be sent:`),
  /** A field of a kind this form cannot show (the server asked for something MCP forms do not have). */
  unsupported: (keys: string) => `This form also asks for ${keys}, which the chat cannot show; send it without, or decline.`,
  /** URL mode: where the link goes, and that it opens only when clicked. */
  urlIntro: (server: string, host: string) => `"${server}" asks you to open a page on ${host}. It opens in a new tab only when you choose it.`,
  /** The link itself. */
  open: (host: string) => `Open ${host}`,
  /** URL mode: the user finished on the page. */
  done: 'Done',
  /** What came of it. */
  accepted: (server: string) => `You sent your answer to ${server}.`,
  acceptedUrl: (host: string) => `You said you finished on ${host}.`,
  declined: 'You declined.',
  cancelled: 'You dismissed it.',
  closedCallEnded: 'Closed: the call ended before you answered.',
  closedTimedOut: 'Closed: it waited too long for an answer.',
  closedInterrupted: 'Closed: the call that asked was interrupted.',
  /** Yes and no, for a ticked box in the answer's summary. */
  yes: 'Yes',
  no: 'No',
};
