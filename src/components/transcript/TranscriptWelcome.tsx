import { useState } from 'react';
import { useSend } from '../../hooks/useActions';

export interface TranscriptWelcomeProps {
  /** The heading. @default 'What can I help with?' */
  title?: string;
  /** One line under it. */
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
export function TranscriptWelcome({ title = 'What can I help with?', text = 'Ask in your own words, or type / for skills.', starters = [] }: TranscriptWelcomeProps) {
  const send = useSend();
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <div data-part="transcript-welcome">
      <p data-part="transcript-welcome-title">{title}</p>
      <p data-part="transcript-welcome-text">{text}</p>
      {starters.length ? (
        <div role="group" aria-label="Starter suggestions" data-part="transcript-welcome-starters">
          {starters.map((starter) => (
            <button
              key={starter}
              type="button"
              data-part="transcript-welcome-starter"
              onClick={() => {
                setFailure(null);
                send(starter).catch((error: unknown) => setFailure(`Not sent: ${error instanceof Error ? error.message : String(error)}`));
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
