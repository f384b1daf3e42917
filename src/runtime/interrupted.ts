// What a restart leaves where work was cut short, in the user's words: the host writes these into
// the log (`interruptionEvents`), the server's chat door and the transcript read them.

/** Words the user reads on whatever a restart cut short. */
export const INTERRUPTED = {
  /** Under a reply cut mid-stream (the message row says it). */
  reply: 'The server restarted; this reply was cut off.',
  /** A turn the restart stopped before any reply was cut (a reply says so itself). */
  turn: 'The server restarted during this turn, so it stopped here. Ask again to go on.',
  invocation: 'The server restarted while this was running, so it did not finish. Run it again.',
  call: 'Interrupted: the server restarted while this ran, so it may not have finished.',
} as const;
