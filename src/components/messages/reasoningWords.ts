// The English words of the model's reasoning above a reply (issue 41); they are
// `defaultMessages.reasoning`, kept apart from defaults.ts only for its length.

/** Whole seconds, at least 1; minutes and seconds past a minute ("1 min 05 s"). */
function seconds(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
}

/** The model's reasoning before a reply: a collapsed disclosure above its text. */
export const reasoningWords = {
  /** The disclosure's button while the model thinks. */
  thinking: 'Thinking…',
  /** The same once it is done, with how long it took. */
  thoughtFor: (ms: number) => `Thought for ${seconds(ms)}`,
  /** The same when how long is not known (a reply cut off while it thought). */
  thought: 'Thought',
  /** The accessible name of the reasoning's text, once shown. */
  label: 'Reasoning',
  /** Reasoning the provider hid (Anthropic's redacted thinking), said in place of its text. */
  redacted: "Some of the reasoning was hidden by the provider's safety systems.",
};
