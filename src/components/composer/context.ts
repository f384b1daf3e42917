import { createContext, useContext } from 'react';

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
}

export const ComposerContext = createContext<ComposerContextValue | null>(null);

export function useComposer(part: string): ComposerContextValue {
  const value = useContext(ComposerContext);
  if (!value) throw new Error(`<Composer.${part}> must be used within <Composer.Root>.`);
  return value;
}
