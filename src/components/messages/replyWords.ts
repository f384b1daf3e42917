import { citationWords } from './citationWords';
import { reasoningWords } from './reasoningWords';
import { diagramWords } from '../markdown/diagramWords';
import { callWords } from '../invocation-card/callWords';
import { attachmentWords } from '../attachments/attachmentWords';

/**
 * The words of what comes with a reply, as `defaultMessages` spreads them in (defaults.ts keeps
 * under the kit's 500 lines): the model's reasoning above it (`reasoning`), the sources it cites
 * (`citations`); and the files a message of the user's carries (`attachments`, with the composer's chips); a diagram in a reply (`diagram`); a call the model is writing (`calls`).
 */
export const replyWords = { reasoning: reasoningWords, citations: citationWords, attachments: attachmentWords, diagram: diagramWords, calls: callWords };
