import { useCallback, useEffect, useId, useRef, useState, type ComponentPropsWithRef } from 'react';
import { usedPart } from '../chat-surface/loadUsedParts';
import { deferred } from '../deferred/deferred';
import { useComposer } from './context';
import type { DictationEngineProps, DictationView } from './dictationEngine';
import { useLocale, useMessages } from '../messages/context';

export type ComposerDictateProps = ComponentPropsWithRef<'button'>;

// The button is here; the machinery behind it (./dictationEngine, in the chunk of the parts loaded
// on use) loads when the user first reaches for it (the pointer on it, focus on it, or the press).
const engine = deferred<DictationEngineProps>(usedPart((m) => m.DictationEngine), 'Composer.DictationEngine', null, 'part');
const preloadEngine = () => void engine.preload().catch(() => {});

/** Whether the browser has speech recognition (`recognizerClass` in ./speech, which loads with the engine). */
function hasRecognizer(): boolean {
  if (typeof window === 'undefined') return false;
  const view = window as unknown as Record<string, unknown>;
  return Boolean(view.SpeechRecognition ?? view.webkitSpeechRecognition);
}

const IDLE: DictationView = { listening: false, error: null, announced: null };

/**
 * Voice input: a toggle button ("Dictate", `aria-pressed`) that fills the message box as the
 * user speaks, after what was typed; it never sends. Shown only where the browser has speech
 * recognition (checked after mount); absent elsewhere. Pressing it again, Escape in the box,
 * sending, or the recognizer ending stops it and keeps the text. The recognizer listens in the
 * surface's `locale` and is made on the first press, so the microphone prompt comes only then.
 * `data-state` is `listening` or `idle`; a polite status says "Listening" / "Stopped listening",
 * and an alert beside the button says why it stopped when it failed (`messages.dictate`).
 * @example
 * <Composer.Root><Composer.Input /><Composer.Dictate /><Composer.Send /></Composer.Root>
 */
export function ComposerDictate({ children, ...props }: ComposerDictateProps) {
  const m = useMessages().dictate;
  const locale = useLocale();
  const { value, setValue, dictation: link } = useComposer('Dictate');
  const errorId = useId();
  // After mount: the server's render and the first one in the browser agree (no button).
  const [supported, setSupported] = useState(false);
  useEffect(() => setSupported(hasRecognizer()), []);
  const [wanted, setWanted] = useState(false);
  const [view, setView] = useState<DictationView>(IDLE);
  const startNow = useRef(false);
  // Until the engine is there, a press asks it to start once it comes, and a second press (or
  // Escape, or a send) takes that back.
  const [control] = useState(() => ({
    start: () => {
      startNow.current = true;
    },
    stop: () => {
      const was = startNow.current;
      startNow.current = false;
      return was;
    },
  }));
  // Sending and Escape in the box stop dictation through the composer.
  useEffect(() => {
    const stop = () => control.stop();
    link.stop = stop;
    return () => {
      if (link.stop === stop) link.stop = () => false;
    };
  }, [link, control]);
  const onView = useCallback((next: DictationView) => setView(next), []);
  if (!supported) return null;
  return (
    <>
      <button
        type="button"
        aria-describedby={view.error ? errorId : undefined}
        {...props}
        aria-pressed={view.listening}
        {...(children ? {} : { 'aria-label': m.button, title: m.button })}
        data-part="composer-dictate"
        data-state={view.listening ? 'listening' : 'idle'}
        onPointerEnter={(event) => {
          props.onPointerEnter?.(event);
          preloadEngine();
        }}
        onFocus={(event) => {
          props.onFocus?.(event);
          preloadEngine();
        }}
        onClick={(event) => {
          props.onClick?.(event);
          if (event.defaultPrevented) return;
          setWanted(true);
          if (!control.stop()) control.start();
        }}
      >
        {children ?? (
          // A microphone: the button is square beside Send, so the message box keeps its width on a phone; its name is the word.
          <svg aria-hidden="true" focusable="false" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <rect x="9" y="2" width="6" height="12" rx="3" />
            <path d="M5 10v1a7 7 0 0 0 14 0v-1M12 18v4M8 22h8" />
          </svg>
        )}
      </button>
      {wanted ? <engine.Part value={value} setValue={setValue} lang={locale} onView={onView} control={control} startNow={startNow} /> : null}
      {/* A live region of its own, not a second role="status": the surface's status line (who started and finished what) stays the one. */}
      <span aria-live="polite" aria-atomic="true" className="cs-visually-hidden" data-part="composer-dictate-status">
        {view.announced === 'listening' ? m.listening : view.announced === 'stopped' ? m.stopped : ''}
      </span>
      {view.error ? (
        <p id={errorId} role="alert" data-part="composer-dictate-error">
          {m[view.error]}
        </p>
      ) : null}
    </>
  );
}
ComposerDictate.displayName = 'Composer.Dictate';
