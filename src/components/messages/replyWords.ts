import { citationWords } from './citationWords';
import { reasoningWords } from './reasoningWords';

/**
 * The words of what comes with a reply, as `defaultMessages` spreads them in (defaults.ts keeps
 * under the kit's 500 lines): the model's reasoning above it (`reasoning`), the sources it cites
 * (`citations`).
 */
export const replyWords = { reasoning: reasoningWords, citations: citationWords };
