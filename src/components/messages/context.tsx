import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { defaultMessages, type ChatSurfaceMessages, type MessagesOverride } from './defaults';
import { mergeMessages } from './merge';

interface MessagesValue {
  messages: ChatSurfaceMessages;
  /** The language of numbers, dates and plurals (a BCP 47 tag such as `de` or `ar-EG`). */
  locale: string;
}

const MessagesContext = createContext<MessagesValue>({ messages: defaultMessages, locale: 'en' });

export interface MessagesProviderProps {
  /** Words in place of the enclosing ones (the English defaults outside any provider). */
  messages?: MessagesOverride | undefined;
  /** The language for numbers, dates and plurals; the enclosing one when absent. */
  locale?: string | undefined;
  children?: ReactNode;
}

/**
 * Gives the parts below it their words and language. `<ChatSurface>` and `<ChatSurface.Root>`
 * provide one from their `messages` and `locale` props; a part rendered on its own (a
 * `MessageRow` in a host's list) takes one from a provider of the host's, else English.
 * @example
 * <MessagesProvider locale="de" messages={{ composer: { send: 'Senden' } }}><Composer.Root>…</Composer.Root></MessagesProvider>
 */
export function MessagesProvider({ messages, locale, children }: MessagesProviderProps) {
  const outer = useContext(MessagesContext);
  const merged = useMemo(() => mergeMessages(outer.messages, messages), [outer.messages, messages]);
  const value = useMemo(() => ({ messages: merged, locale: locale ?? outer.locale }), [merged, locale, outer.locale]);
  return <MessagesContext.Provider value={value}>{children}</MessagesContext.Provider>;
}
MessagesProvider.displayName = 'ChatSurface.Messages';

/**
 * The words of the surface around the caller: the host's `messages` over the English defaults.
 * @example
 * const m = useMessages();
 * <button>{m.composer.send}</button>
 */
export function useMessages(): ChatSurfaceMessages {
  return useContext(MessagesContext).messages;
}

/**
 * The language of the surface around the caller, for `Intl` formats: its `locale` prop, else
 * the `lang` of the page around it, else `en`.
 * @example
 * new Intl.DateTimeFormat(useLocale(), { timeStyle: 'short' }).format(date);
 */
export function useLocale(): string {
  return useContext(MessagesContext).locale;
}
