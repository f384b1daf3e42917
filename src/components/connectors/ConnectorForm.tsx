import { useId, useState, type FormEvent } from 'react';
import type { ConnectMcpRequest } from '../../workspace/connectorsProtocol';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface ConnectorFormProps {
  /** Connects on the server; a rejection's message is shown, and what was typed stays (the token field is cleared either way). */
  onConnect(request: ConnectMcpRequest): Promise<void>;
  /** A refusal to show from the start (stories, a host restoring its UI). @default none */
  defaultError?: string;
}

/**
 * Name, URL and optional token (a password field) of an MCP server to
 * connect. The token is posted to the server and the field cleared; it never
 * goes into the transcript. `data-state` is idle|connecting|error.
 * @example
 * <ConnectorForm onConnect={(r) => api.connect(r)} />
 */
export function ConnectorForm({ onConnect, defaultError }: ConnectorFormProps) {
  const id = useId();
  const [label, setLabel] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [state, setState] = useState<'idle' | 'connecting' | 'error'>(defaultError ? 'error' : 'idle');
  const messages = useMessages();
  const m = messages.connectors;
  const [error, setError] = useState<string | null>(defaultError ?? null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state === 'connecting') return;
    setState('connecting');
    setError(null);
    const request: ConnectMcpRequest = { label: label.trim(), url: url.trim(), ...(token.trim() ? { token: token.trim() } : {}) };
    // The token leaves the page's state as soon as it is sent.
    setToken('');
    try {
      await onConnect(request);
      setLabel('');
      setUrl('');
      setState('idle');
    } catch (e) {
      setError(m.notConnected(reasonOf(e, messages)));
      setState('error');
    }
  };

  return (
    <form data-part="mcp-connect" data-state={state} aria-label={m.form} onSubmit={submit}>
      <div data-part="mcp-connect-field">
        <label htmlFor={`${id}-label`}>{m.name}</label>
        <input id={`${id}-label`} name="label" required maxLength={32} autoComplete="off" placeholder={m.namePlaceholder} value={label} onChange={(e) => setLabel(e.target.value)} />
      </div>
      <div data-part="mcp-connect-field">
        <label htmlFor={`${id}-url`}>{m.url}</label>
        <input id={`${id}-url`} name="url" type="url" required placeholder="https://mcp.example.com/mcp" value={url} onChange={(e) => setUrl(e.target.value)} />
      </div>
      <div data-part="mcp-connect-field">
        <label htmlFor={`${id}-token`}>{m.token}</label>
        <input id={`${id}-token`} name="token" type="password" autoComplete="off" value={token} onChange={(e) => setToken(e.target.value)} />
      </div>
      <button type="submit" data-part="mcp-connect-submit" disabled={state === 'connecting'}>
        {state === 'connecting' ? m.connecting : m.connect}
      </button>
      {error ? (
        <p role="alert" data-part="mcp-connect-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}
ConnectorForm.displayName = 'Connectors.Form';
