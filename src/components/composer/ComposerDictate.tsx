import { useEffect, useId, type ComponentPropsWithRef } from 'react';
import { useComposer } from './context';
import { useDictation } from './useDictation';
import { useLocale, useMessages } from '../messages/context';

export type ComposerDictateProps = ComponentPropsWithRef<'button'>;

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
  const dictation = useDictation(value, setValue, locale);
  const errorId = useId();
  const { stop } = dictation;
  // Sending and Escape in the box stop dictation through the composer.
  useEffect(() => {
    link.stop = stop;
    return () => {
      if (link.stop === stop) link.stop = () => false;
    };
  }, [link, stop]);
  if (!dictation.supported) return null;
  return (
    <>
      <button
        type="button"
        aria-describedby={dictation.error ? errorId : undefined}
        {...props}
        aria-pressed={dictation.listening}
        {...(children ? {} : { 'aria-label': m.button, title: m.button })}
        data-part="composer-dictate"
        data-state={dictation.listening ? 'listening' : 'idle'}
        onClick={(event) => {
          props.onClick?.(event);
          if (event.defaultPrevented) return;
          if (!dictation.stop()) dictation.start();
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
      {/* A live region of its own, not a second role="status": the surface's status line (who started and finished what) stays the one. */}
      <span aria-live="polite" aria-atomic="true" className="cs-visually-hidden" data-part="composer-dictate-status">
        {dictation.announced === 'listening' ? m.listening : dictation.announced === 'stopped' ? m.stopped : ''}
      </span>
      {dictation.error ? (
        <p id={errorId} role="alert" data-part="composer-dictate-error">
          {m[dictation.error]}
        </p>
      ) : null}
    </>
  );
}
ComposerDictate.displayName = 'Composer.Dictate';
