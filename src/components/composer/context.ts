import { createContext, useContext } from 'react';
import type { DraftFiles } from '../attachments/draft';

export interface ComposerContextValue {
  value: string;
  setValue(value: string): void;
  /** Sends the draft (or `text` instead of it); a slash command runs its skill. Keeps the draft when that fails. */
  submit(text?: string): void;
  /** Why the last send failed, if it did. */
  error: string | null;
  inputId: string;
  errorId: string;
  /** Stops dictation (`Composer.Dictate`) if it listens, keeping the text; false when it did not. */
  dictation: { stop: () => boolean };
  /** The files to send with the message (`Composer.Attach`), or null when the workspace takes none. */
  attachments: DraftFiles | null;
  /** The id of the words that say why Send waits (files still uploading). */
  waitId: string;
}

export const ComposerContext = createContext<ComposerContextValue | null>(null);

export function useComposer(part: string): ComposerContextValue {
  const value = useContext(ComposerContext);
  if (!value) throw new Error(`<Composer.${part}> must be used within <Composer.Root>.`);
  return value;
}
