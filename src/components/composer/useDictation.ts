import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { dictationError, heard, recognizerClass, withSpoken, type DictationError, type Recognizer } from './speech';

/** One press of Dictate until it stops: what the box held before, and what dictation last put in it. */
interface Session {
  /** The text the words heard follow. */
  before: string;
  /** The first result of the recognizer's that is not in `before` yet. */
  from: number;
  /** The box's text as dictation last set it (another text means the user typed meanwhile). */
  shown: string;
  /** The interim words at the end of `shown`, which the recognizer may still replace. */
  interim: string;
}

export interface Dictation {
  /** Whether the browser has speech recognition (false on the server and in the first render). */
  supported: boolean;
  listening: boolean;
  error: DictationError | null;
  /** 'listening' or 'stopped' once the user has dictated (for the live region), else null. */
  announced: 'listening' | 'stopped' | null;
  start(): void;
  /** Stops listening, keeping the text in the box; false when it was not listening. */
  stop(): boolean;
}

/**
 * Dictation into the draft: while listening, the words heard follow what was typed (interim
 * ones replaced as the recognizer refines them); nothing is ever sent. The recognizer is made on
 * the first `start()` (no microphone prompt before the user asks), and stopped on unmount.
 */
export function useDictation(value: string, setValue: (value: string) => void, lang: string): Dictation {
  const [supported, setSupported] = useState(false);
  const [listening, setListening] = useState(false);
  const [error, setError] = useState<DictationError | null>(null);
  const [announced, setAnnounced] = useState<Dictation['announced']>(null);
  const recognizer = useRef<Recognizer | null>(null);
  const session = useRef<Session | null>(null);
  // The handlers read the latest draft and setter, not the ones of the render that made them.
  const latest = useRef({ value, setValue });
  useIsomorphicLayoutEffect(() => {
    latest.current = { value, setValue };
  });
  // After mount: the server's render and the first one in the browser agree (no button).
  useEffect(() => setSupported(recognizerClass() !== null), []);

  const ended = useCallback(() => {
    session.current = null;
    setListening(false);
    setAnnounced('stopped');
  }, []);

  const create = useCallback((): Recognizer | null => {
    if (recognizer.current) return recognizer.current;
    const Recognition = recognizerClass();
    if (!Recognition) return null;
    const made = new Recognition();
    made.onresult = (event) => {
      const now = session.current;
      if (!now) return; // stopped: what is in the box stays as it is
      const { value: draft, setValue: set } = latest.current;
      if (draft !== now.shown) {
        // The user typed meanwhile: the words heard from now on follow their text (without the old interim words).
        now.before = now.interim && draft.endsWith(now.interim) ? draft.slice(0, -now.interim.length).trimEnd() : draft;
        now.from = event.resultIndex;
      }
      const { spoken, interim } = heard(event, now.from);
      now.shown = withSpoken(now.before, spoken);
      now.interim = interim;
      if (now.shown !== draft) set(now.shown);
    };
    made.onerror = (event) => {
      setError(dictationError(event.error));
      if (session.current) ended();
    };
    made.onend = () => {
      if (session.current) ended();
    };
    return (recognizer.current = made);
  }, [ended]);

  const start = useCallback(() => {
    const made = create();
    if (!made || session.current) return;
    setError(null);
    made.continuous = true;
    made.interimResults = true;
    made.lang = lang;
    const draft = latest.current.value;
    session.current = { before: draft, from: 0, shown: draft, interim: '' };
    try {
      made.start();
    } catch {
      session.current = null;
      setError('failed');
      return;
    }
    setListening(true);
    setAnnounced('listening');
  }, [create, lang]);

  const stop = useCallback(() => {
    if (!session.current) return false;
    ended();
    recognizer.current?.stop();
    return true;
  }, [ended]);

  useEffect(
    () => () => {
      const made = recognizer.current;
      if (!made) return;
      made.onresult = made.onerror = made.onend = null;
      session.current = null;
      made.stop();
    },
    [],
  );

  return { supported, listening, error, announced, start, stop };
}

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
