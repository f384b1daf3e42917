import { useCallback, useId, useMemo, useState, type ComponentPropsWithRef } from 'react';
import { useControllableState } from '../../hooks/useControllableState';
import { useSend } from '../../hooks/useActions';
import { useChatSurface } from '../../hooks/context';
import { useOptionalMessageQueue } from '../queue/context';
import { QUEUE_LIMIT } from '../queue/queueStore';
import { useOptionalSlash } from '../slash/context';
import { ComposerContext } from './context';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface ComposerRootProps extends Omit<ComponentPropsWithRef<'form'>, 'onSubmit'> {
  /** The draft, when the host controls it. */
  value?: string;
  /** The first draft when uncontrolled. @default '' */
  defaultValue?: string;
  /** Told of every edit of the draft. */
  onValueChange?: (value: string) => void;
}

/**
 * The message form. Sending clears the draft; a failed send puts it back and says why.
 * Inside `<Slash.Root>` a `/word …` draft runs that slash skill instead of being sent as it is.
 * @example
 * <Composer.Root><Composer.Input /><Composer.Send /></Composer.Root>
 */
export function ComposerRoot({ value: valueProp, defaultValue = '', onValueChange, children, ...props }: ComposerRootProps) {
  const [value, setValue] = useControllableState({ value: valueProp, defaultValue, onChange: onValueChange });
  const [error, setError] = useState<string | null>(null);
  const send = useSend();
  const slash = useOptionalSlash();
  // Each surface's composer form is a landmark of its own name when several share a page.
  const { label: surfaceLabel, store } = useChatSurface();
  const queued = useOptionalMessageQueue();
  const messages = useMessages();
  const m = messages.composer;
  const surfaceDefault = messages.surface.label;
  const inputId = useId();
  const errorId = useId();
  // Composer.Dictate puts its stop here: sending, and Escape in the box, stop listening.
  const [dictation] = useState(() => ({ stop: () => false }));

  const submit = useCallback(
    (override?: string) => {
      const draft = override ?? value;
      const text = draft.trim();
      if (!text) return;
      dictation.stop();
      setError(null);
      // While a reply runs, or messages already wait, a message waits its turn (a slash skill runs at once).
      if (queued && !text.startsWith('/') && (store.getState().thread.activeTurn !== null || queued.queue.getState().items.length > 0)) {
        if (queued.queue.getState().items.length >= QUEUE_LIMIT) return setError(messages.queue.full(QUEUE_LIMIT));
        queued.queue.add(text);
        setValue('');
        return;
      }
      setValue('');
      let done: Promise<void>;
      try {
        done = slash?.run(text) ?? send(text);
      } catch (reason) {
        done = Promise.reject(reason);
      }
      done.catch((reason: unknown) => {
        setValue(draft);
        const said = reasonOf(reason, messages).replace(/\.$/, '');
        setError(m.notSent(said));
      });
    },
    [value, setValue, send, slash, m, messages, queued, store, dictation],
  );

  const context = useMemo(() => ({ value, setValue, submit, error, inputId, errorId, dictation }), [value, setValue, submit, error, inputId, errorId, dictation]);
  return (
    <ComposerContext.Provider value={context}>
      <form
        aria-label={surfaceLabel && surfaceLabel !== surfaceDefault ? m.labelOf(surfaceLabel) : m.label}
        {...props}
        data-part="composer"
        data-state={value.trim() ? 'ready' : 'empty'}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {children}
        {error ? (
          <p id={errorId} role="alert" data-part="composer-error">
            {error}
          </p>
        ) : null}
      </form>
    </ComposerContext.Provider>
  );
}
ComposerRoot.displayName = 'Composer.Root';
