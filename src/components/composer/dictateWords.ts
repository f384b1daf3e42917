/** The words of `Composer.Dictate` (voice input): `messages.dictate`. */
export const dictateWords = {
  /** The toggle button's name (its pressed state says whether it listens). */
  button: 'Dictate',
  /** Announced (politely) when listening starts, and when it stops. */
  listening: 'Listening',
  stopped: 'Stopped listening',
  /** Why dictation stopped, shown as an alert beside the button; the typed text stays. */
  notAllowed: 'The microphone is not allowed. Allow it for this site in the browser, then press Dictate again.',
  noSpeech: 'Nothing was heard. Press Dictate and speak again.',
  audioCapture: 'No microphone was found. Connect one, then press Dictate again.',
  network: 'The speech service could not be reached. Check the connection, then press Dictate again.',
  failed: 'Dictation stopped because of a problem. Your text is kept; press Dictate to try again.',
};
