import { SuggestionChip } from './SuggestionChip';
import { SuggestionsRoot } from './SuggestionsRoot';

/** The suggested-next-verb chips' parts. */
export const Suggestions = { Root: SuggestionsRoot, Chip: SuggestionChip };
