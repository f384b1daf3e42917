import { useState } from 'react';
import { useSend } from '../../hooks/useActions';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface TranscriptWelcomeProps {
  /** The heading. @default messages.welcome.title ('What can I help with?') */
  title?: string;
  /** One line under it. @default messages.welcome.text */
  text?: string;
  /** Starter messages from the host: each is a button that sends it. */
  starters?: readonly string[];
}

/**
 * What a thread shows before its first message: a heading, a line, and the
 * host's starter suggestions (each sends its text as the user's message).
 * @example
 * <TranscriptWelcome starters={['Import customers.csv', 'What can you do?']} />
 */
export function TranscriptWelcome({ title, text, starters = [] }: TranscriptWelcomeProps) {
  const messages = useMessages();
  const m = messages.welcome;
  const send = useSend();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div data-part="transcript-welcome">
      <p data-part="transcript-welcome-title">{title ?? m.title}</p>
      <p data-part="transcript-welcome-text">{text ?? m.text}</p>
      {starters.length ? (
        <div role="group" aria-label={m.startersLabel} data-part="transcript-welcome-starters">
          {starters.map((starter) => (
            <button
              key={starter}
              type="button"
              data-part="transcript-welcome-starter"
              onClick={() => {
                setFailure(null);
                send(starter).catch((error: unknown) => setFailure(m.notSent(reasonOf(error, messages))));
              }}
            >
              {starter}
            </button>
          ))}
        </div>
      ) : null}
      {failure ? <p role="alert">{failure}</p> : null}
    </div>
  );
}
TranscriptWelcome.displayName = 'ChatSurface.TranscriptWelcome';
