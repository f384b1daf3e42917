/** One server-sent event as the stream framed it. */
export interface SseMessage {
  id?: string;
  event?: string;
  data: string;
  /** A `retry:` the server asked for, in ms. */
  retry?: number;
}

/**
 * An incremental server-sent-events parser (the WHATWG framing: `\n`, `\r\n`
 * or `\r` line ends, `:` comments, multi-line `data:`), fed with decoded
 * chunks as they arrive from `fetch`. Works anywhere web streams do.
 * @example
 * const parse = createSseParser((message) => console.log(message.id, message.data));
 * parse(chunkText);
 */
export function createSseParser(onMessage: (message: SseMessage) => void): (chunk: string) => void {
  let buffer = '';
  let data: string[] = [];
  let id: string | undefined;
  let event: string | undefined;
  let retry: number | undefined;

  const dispatch = () => {
    if (data.length || retry !== undefined) {
      const message: SseMessage = { data: data.join('\n') };
      if (id !== undefined) message.id = id;
      if (event !== undefined) message.event = event;
      if (retry !== undefined) message.retry = retry;
      onMessage(message);
    }
    data = [];
    id = undefined;
    event = undefined;
    retry = undefined;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        data.push(value);
        return;
      case 'id':
        if (!value.includes('\u0000')) id = value;
        return;
      case 'event':
        event = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        return;
      default:
        return;
    }
  };

  return (chunk) => {
    buffer += chunk;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      // A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
      if (c === '\r' && i === buffer.length - 1) break;
      line(buffer.slice(start, i));
      if (c === '\r' && buffer[i + 1] === '\n') i++;
      start = i + 1;
    }
    buffer = buffer.slice(start);
  };
}
