import { useCallback, useLayoutEffect, useMemo, useRef, useState, type ComponentPropsWithRef, type KeyboardEvent, type ReactNode } from 'react';
import { useInvoke } from '../../hooks/useActions';
import { useSuggestions } from '../../hooks/useSuggestions';
import type { Suggestion } from '../../runtime/anticipation';
import { SuggestionChip } from './SuggestionChip';
import { SuggestionsContext } from './context';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface SuggestionsRootProps extends Omit<ComponentPropsWithRef<'div'>, 'children'> {
  /** Renders the chips; by default one `<Suggestions.Chip>` per suggestion. */
  children?: (suggestions: readonly Suggestion[]) => ReactNode;
}

/**
 * The suggested next verbs as chips: looked up synchronously in the
 * workspace's anticipation map by the active view and the capability that
 * finished last, so they change the moment either one does. A chip invokes
 * its capability with its prefill and no model call. Left/Right arrows move
 * between chips. Renders nothing when there is nothing to suggest.
 * @example
 * <Suggestions.Root />
 */
export function SuggestionsRoot({ children, onKeyDown, ref, ...props }: SuggestionsRootProps) {
  const suggestions = useSuggestions();
  const invoke = useInvoke();
  const [starting, setStarting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const messages = useMessages();
  const m = messages.suggestions;

  const run = useCallback(
    (suggestion: Suggestion) => {
      setError(null);
      setStarting(suggestion.capability);
      invoke(suggestion.capability, suggestion.prefill ?? {})
        .catch((reason: unknown) => setError(m.notStarted(suggestion.hint, reasonOf(reason, messages))))
        .finally(() => setStarting((current) => (current === suggestion.capability ? null : current)));
    },
    [invoke, m, messages],
  );
  const context = useMemo(() => ({ run, starting }), [run, starting]);
  const keepFocus = useFocusAcrossChanges(suggestions);
  if (suggestions.length === 0 && !error) return null;

  return (
    <SuggestionsContext.Provider value={context}>
      <div
        role="group"
        aria-label={m.label}
        {...props}
        ref={(node) => {
          keepFocus.ref.current = node;
          if (typeof ref === 'function') ref(node);
          else if (ref) ref.current = node;
        }}
        data-part="suggestions"
        onFocus={keepFocus.onFocus}
        onBlur={keepFocus.onBlur}
        onKeyDown={(event) => {
          onKeyDown?.(event);
          if (!event.defaultPrevented) moveFocus(event);
        }}
      >
        {children ? children(suggestions) : suggestions.map((suggestion) => <SuggestionChip key={`${suggestion.capability}:${suggestion.hint}`} suggestion={suggestion} />)}
        {error ? (
          <p role="alert" data-part="suggestions-error">
            {error}
          </p>
        ) : null}
      </div>
    </SuggestionsContext.Provider>
  );
}
SuggestionsRoot.displayName = 'Suggestions.Root';

/**
 * When the chips change under the keyboard focus (a chip's capability just
 * finished), focus moves to the first new chip, or to the message box when
 * none is left, instead of falling to the page.
 */
function useFocusAcrossChanges(suggestions: readonly Suggestion[]) {
  const ref = useRef<HTMLDivElement | null>(null);
  const within = useRef(false);
  const surface = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (!within.current) return;
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    within.current = false;
    const target = ref.current?.querySelector<HTMLElement>('[data-part="suggestion-chip"]') ?? surface.current?.querySelector<HTMLElement>('[data-part="composer-input"]');
    target?.focus();
  }, [suggestions]);
  return {
    ref,
    onFocus: () => {
      within.current = true;
      surface.current = ref.current?.closest('[data-chat-surface]') ?? null;
    },
    onBlur: (event: React.FocusEvent<HTMLDivElement>) => {
      // A chip removed while focused is not the user leaving.
      if (!(event.target as Node).isConnected) return;
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) within.current = false;
    },
  };
}

function moveFocus(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
  // Right to left, the next chip is on the left: the arrow keys follow the chips as they are laid out.
  const rtl = getComputedStyle(event.currentTarget).direction === 'rtl';
  const forward = (event.key === 'ArrowRight') !== rtl;
  const chips = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('[data-part="suggestion-chip"]')];
  const at = chips.indexOf(event.target as HTMLButtonElement);
  if (at === -1) return;
  event.preventDefault();
  const next = chips[(at + (forward ? 1 : chips.length - 1)) % chips.length];
  next?.focus();
}
