import { createContext, useContext } from 'react';
import type { Suggestion } from '../../runtime/anticipation';

export interface SuggestionsContextValue {
  /** Invokes the suggestion's capability with its prefill, no model call. */
  run(suggestion: Suggestion): void;
  /** The capability of the chip whose invocation is being started, if any. */
  starting: string | null;
}

export const SuggestionsContext = createContext<SuggestionsContextValue | null>(null);

export function useSuggestionsContext(part: string): SuggestionsContextValue {
  const value = useContext(SuggestionsContext);
  if (!value) throw new Error(`<Suggestions.${part}> must be used within <Suggestions.Root>.`);
  return value;
}
