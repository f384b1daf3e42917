/**
 * The part of the Web Speech API's recognizer that dictation uses (the DOM types have no
 * `SpeechRecognition`): Chrome, Edge and Safari name it `webkitSpeechRecognition`.
 */
export interface Recognizer {
  continuous: boolean;
  interimResults: boolean;
  lang: string;
  onresult: ((event: RecognizerResultEvent) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
}

/** A result event: every result of the session so far, from `resultIndex` on the ones that changed. */
export interface RecognizerResultEvent {
  resultIndex: number;
  results: ArrayLike<ArrayLike<{ transcript: string }> & { isFinal: boolean }>;
}

export type RecognizerClass = new () => Recognizer;

type SpeechWindow = { SpeechRecognition?: RecognizerClass; webkitSpeechRecognition?: RecognizerClass };

/** The browser's recognizer class, or null where there is none (and on the server). */
export function recognizerClass(): RecognizerClass | null {
  if (typeof window === 'undefined') return null;
  const view = window as unknown as SpeechWindow;
  return view.SpeechRecognition ?? view.webkitSpeechRecognition ?? null;
}

/** Which of `messages.dictate`'s words says why dictation stopped. */
export type DictationError = 'notAllowed' | 'noSpeech' | 'audioCapture' | 'network' | 'failed';

/** The recognizer's error code in the kit's words. */
export function dictationError(code: string): DictationError {
  switch (code) {
    case 'not-allowed':
    case 'service-not-allowed':
      return 'notAllowed';
    case 'no-speech':
      return 'noSpeech';
    case 'audio-capture':
      return 'audioCapture';
    case 'network':
      return 'network';
    default:
      return 'failed';
  }
}

/** The words heard from result `from` on (final ones, then the interim ones), and the interim part alone. */
export function heard(event: RecognizerResultEvent, from: number): { spoken: string; interim: string } {
  const finals: string[] = [];
  const interims: string[] = [];
  for (let i = from; i < event.results.length; i++) {
    const result = event.results[i]!;
    const text = result[0]?.transcript.trim() ?? '';
    if (text) (result.isFinal ? finals : interims).push(text);
  }
  return { spoken: [...finals, ...interims].join(' '), interim: interims.join(' ') };
}

/** The box's text: what was in it before, then the words heard, a space between them. */
export function withSpoken(before: string, spoken: string): string {
  if (!spoken) return before;
  return before && !/\s$/.test(before) ? `${before} ${spoken}` : `${before}${spoken}`;
}
