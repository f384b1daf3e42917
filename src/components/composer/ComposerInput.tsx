import type { ComponentPropsWithRef } from 'react';
import { useStop } from '../../hooks/useActions';
import { useComposer } from './context';

export interface ComposerInputProps extends Omit<ComponentPropsWithRef<'textarea'>, 'value' | 'defaultValue'> {
  /** @default 'Ask, or name what to run…' */
  placeholder?: string;
}

/**
 * The draft. Enter sends, Shift+Enter starts a new line, Enter while an
 * input method is composing never sends, and Escape stops a running turn.
 * @example
 * <Composer.Input placeholder="Ask anything" />
 */
export function ComposerInput({ placeholder = 'Ask, or name what to run…', ...props }: ComposerInputProps) {
  const { value, setValue, submit, error, inputId, errorId } = useComposer('Input');
  const stop = useStop();
  return (
    <textarea
      id={inputId}
      rows={1}
      aria-label="Message"
      placeholder={placeholder}
      {...props}
      aria-describedby={error ? errorId : undefined}
      aria-invalid={error ? true : undefined}
      data-part="composer-input"
      value={value}
      onChange={(event) => {
        props.onChange?.(event);
        setValue(event.target.value);
      }}
      onKeyDown={(event) => {
        props.onKeyDown?.(event);
        if (event.defaultPrevented) return;
        if (event.key === 'Escape' && stop) {
          event.preventDefault();
          stop();
          return;
        }
        if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing && event.keyCode !== 229) {
          event.preventDefault();
          submit();
        }
      }}
    />
  );
}
ComposerInput.displayName = 'Composer.Input';
