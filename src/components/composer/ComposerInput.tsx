import { useCallback, useEffect, useRef, type ComponentPropsWithRef, type Ref } from 'react';
import { useStopTurn } from '../../hooks/useActions';
import { useEditLast } from '../../hooks/useVersions';
import { SlashCombobox } from '../slash/SlashCombobox';
import { useActiveDescendant, useSlashCombobox, type SlashComboboxState } from '../slash/useSlashCombobox';
import { useComposer } from './context';
import { useOptionalMessageQueue } from '../queue/context';
import { keepInVisualViewport } from './keepInVisualViewport';
import { useMessages } from '../messages/context';

export interface ComposerInputProps extends Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'defaultValue'> {
  /** @default messages.composer.placeholder ('Ask anything…') */
  placeholder?: string;
}

/**
 * The draft. Enter sends, Shift+Enter starts a new line, Enter while an
 * input method is composing never sends, and Escape stops dictation, else a running turn.
 * With slash skills (inside `<Slash.Root>`), `/` at the start opens the
 * skill list: ↑/↓ move, Enter runs, Tab completes, Escape closes it. ↑ in an
 * empty box opens the newest message of the user's for editing (`Message.Editor`), with a
 * workspace that keeps versions.
 * @example
 * <Composer.Input placeholder="Ask anything" />
 */
export function ComposerInput({ placeholder, ...props }: ComposerInputProps) {
  const m = useMessages().composer;
  const { value, setValue, submit, error, inputId, errorId, dictation } = useComposer('Input');
  const stopTurn = useStopTurn();
  const editLast = useEditLast();
  const queued = useOptionalMessageQueue();
  const combobox = useSlashCombobox(value, setValue, submit);
  const listed = combobox?.open && combobox.items.length > 0;
  // On a phone the on-screen keyboard must not cover the box being typed in.
  const unwatch = useRef<() => void>(() => {});
  useEffect(() => () => unwatch.current(), []);
  const textarea = (
    <MessageBox
      combobox={combobox}
      id={inputId}
      rows={1}
      aria-label={m.input}
      placeholder={placeholder ?? m.placeholder}
      {...props}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
      aria-autocomplete={combobox ? 'list' : undefined}
      aria-controls={listed ? combobox.listId : undefined}
      data-part="composer-input"
      value={value}
      onFocus={(event) => {
        props.onFocus?.(event);
        combobox?.prepare();
        unwatch.current();
        unwatch.current = keepInVisualViewport(event.currentTarget);
      }}
      onBlur={(event) => {
        props.onBlur?.(event);
        unwatch.current();
        unwatch.current = () => {};
      }}
      onChange={(event) => {
        props.onChange?.(event);
        setValue(event.target.value);
      }}
      onKeyDown={(event) => {
        props.onKeyDown?.(event);
        if (event.defaultPrevented) return;
        if (combobox?.onKeyDown(event)) return;
        if (
          event.key === 'ArrowUp' &&
          !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey &&
          !event.nativeEvent.isComposing &&
          event.currentTarget.value === '' &&
          event.currentTarget.selectionStart === 0 &&
          editLast(event.currentTarget)
        ) {
          event.preventDefault();
          return;
        }
        // Escape stops dictation first (the text stays), then a running turn.
        if (event.key === 'Escape' && dictation.stop()) {
          event.preventDefault();
          return;
        }
        if (event.key === 'Escape' && stopTurn()) {
          event.preventDefault();
          queued?.queue.pause();
          return;
        }
        if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && event.keyCode !== 229) {
          event.preventDefault();
          submit();
        }
      }}
    />
  );
  return combobox ? <SlashCombobox state={combobox}>{textarea}</SlashCombobox> : textarea;
}
ComposerInput.displayName = 'Composer.Input';

/**
 * The textarea, pointing at the slash list's highlighted option
 * (`aria-activedescendant`, kept by `useActiveDescendant` without a render).
 */
function MessageBox({ combobox, ref, ...props }: ComponentPropsWithRef<'textarea'> & { combobox: SlashComboboxState | null }) {
  const box = useRef<HTMLTextAreaElement | null>(null);
  useActiveDescendant(box, combobox);
  const setRef = useCallback(
    (el: HTMLTextAreaElement) => {
      box.current = el;
      const detach = assignRef(ref, el);
      return () => {
        box.current = null;
        detach();
      };
    },
    [ref],
  );
  return <textarea ref={setRef} {...props} />;
}

/** Passes the element to the host's ref too (an object or a callback, and its cleanup); returns how to detach it. */
function assignRef<T>(ref: Ref<T> | undefined, value: T): () => void {
  if (typeof ref === 'function') {
    const cleanup = ref(value);
    return typeof cleanup === 'function' ? cleanup : () => void ref(null);
  }
  if (ref) {
    ref.current = value;
    return () => {
      ref.current = null;
    };
  }
  return () => {};
}
