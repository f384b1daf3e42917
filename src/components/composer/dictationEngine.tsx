import { useEffect, useLayoutEffect } from 'react';
import { useDictation, type Dictation } from './useDictation';

// Dictation's machinery (the recognizer's session, its results into the draft): a chunk of its
// own, fetched when the user first reaches for Dictate (see ComposerDictate).

/** What `Composer.Dictate` shows of the dictation. */
export type DictationView = Pick<Dictation, 'listening' | 'error' | 'announced'>;

export interface DictationEngineProps {
  value: string;
  setValue: (value: string) => void;
  lang: string;
  /** Told each change of what the button and its live region show. */
  onView: (view: DictationView) => void;
  /** Filled with the engine's start and stop for the button (and `stop` for the composer: sending and Escape stop it). */
  control: { start(): void; stop(): boolean };
  /** The button was pressed before the engine came: start listening as soon as it is there. */
  startNow: { current: boolean };
}

/** Runs dictation for `Composer.Dictate`; renders nothing. */
export function DictationEngine({ value, setValue, lang, onView, control, startNow }: DictationEngineProps) {
  const dictation = useDictation(value, setValue, lang);
  const { start, stop, listening, error, announced } = dictation;
  useIsomorphicLayoutEffect(() => {
    control.start = start;
    control.stop = stop;
  }, [control, start, stop]);
  useEffect(() => {
    if (!startNow.current) return;
    startNow.current = false;
    start();
  }, [startNow, start]);
  useEffect(() => onView({ listening, error, announced }), [onView, listening, error, announced]);
  return null;
}

const useIsomorphicLayoutEffect = typeof document === 'undefined' ? useEffect : useLayoutEffect;
