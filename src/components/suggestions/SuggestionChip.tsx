import type { ComponentPropsWithRef } from 'react';
import { useChatSurface } from '../../hooks/context';
import { useCast } from '../../hooks/useThread';
import type { Suggestion } from '../../runtime/anticipation';
import { useSuggestionsContext } from './context';
import { useMessages } from '../messages/context';

export interface SuggestionChipProps extends Omit<ComponentPropsWithRef<'button'>, 'children'> {
  /** The suggestion this chip runs. */
  suggestion: Suggestion;
}

/**
 * One suggested next verb: its hint as the label (the capability's title on
 * hover); click or Enter invokes it with its prefill. `data-state` is
 * `starting` while the invocation is being handed to the workspace, and
 * `running` (disabled) while its capability runs.
 * @example
 * <Suggestions.Chip suggestion={{ capability: 'records.enrich', hint: 'Enrich the new records' }} />
 */
export function SuggestionChip({ suggestion, ...props }: SuggestionChipProps) {
  const { run, starting } = useSuggestionsContext('Chip');
  const { workspace } = useChatSurface();
  const title = workspace.manifest.capabilities.find((c) => c.name === suggestion.capability)?.title;
  const running = useCast().some((entry) => entry.capability === suggestion.capability);
  const busy = starting === suggestion.capability || running;
  const m = useMessages().suggestions;
  return (
    <button
      type="button"
      title={running ? m.running(title ?? suggestion.hint) : title && title !== suggestion.hint ? m.runs(title) : undefined}
      {...props}
      data-part="suggestion-chip"
      data-capability={suggestion.capability}
      data-state={running ? 'running' : busy ? 'starting' : 'idle'}
      // aria-disabled, not disabled: a disabled button would drop the keyboard focus.
      aria-disabled={busy || undefined}
      onClick={(event) => {
        props.onClick?.(event);
        if (!event.defaultPrevented && !busy) run(suggestion);
      }}
    >
      {suggestion.hint}
    </button>
  );
}
SuggestionChip.displayName = 'Suggestions.Chip';
