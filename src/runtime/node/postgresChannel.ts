import type { ListenConnection, PostgresDatabase } from './postgres';

/** The payload NOTIFY carries: short, so it always fits PostgreSQL's 8000 bytes (a longer key says "re-read everything"). */
export function appendPayload(key: string, seq: number): string {
  return Buffer.byteLength(key) > 7_000 ? `a ${seq} *` : `a ${seq} ${key}`;
}

/** What the channel hears, by kind of notification. */
export interface ChannelHandlers {
  /** `a seq key`, sent by the event store in the append's own transaction; `('*', 0)` after a reconnect: re-read everything. */
  onAppend(key: string, seq: number): void;
  /** `c key id`: a cancel requested on any instance. */
  onCancel(key: string, id: string): void;
  /** `r key`: a lease given back. */
  onRelease(key: string): void;
  /** A dropped connection, or a failed reconnect. */
  onError(error: unknown): void;
}

/** The LISTEN connection. */
export interface ChannelListener {
  /** Ends the connection; no reconnect follows. */
  close(): Promise<void>;
}

/** Reads one notification's payload into its handler. */
function dispatch(payload: string, handlers: ChannelHandlers): void {
  const kind = payload[0];
  const rest = payload.slice(2);
  if (kind === 'a') {
    const space = rest.indexOf(' ');
    handlers.onAppend(rest.slice(space + 1), Number(rest.slice(0, space)));
  } else if (kind === 'c') {
    const space = rest.lastIndexOf(' ');
    handlers.onCancel(rest.slice(0, space), rest.slice(space + 1));
  } else if (kind === 'r') {
    handlers.onRelease(rest);
  }
}

/**
 * One connection outside the pool hears the database's channel; when it
 * drops, a new one follows (backing off to 2 s) and every follower re-reads
 * what it missed. Resolves once the first connection listens.
 */
export async function listenToChannel(db: PostgresDatabase, handlers: ChannelHandlers): Promise<ChannelListener> {
  let listener: ListenConnection | null = null;
  let closed = false;
  let reconnecting = false;

  const listen = async (): Promise<void> => {
    const client = db.dedicated();
    client.on('notification', (message) => {
      if (message.channel === db.channel && message.payload) dispatch(message.payload, handlers);
    });
    client.on('error', (error) => {
      handlers.onError(error);
      if (listener === client) void reconnect();
    });
    await client.connect();
    await client.query(`LISTEN "${db.channel}"`);
    listener = client;
  };

  const reconnect = async () => {
    if (closed || reconnecting) return;
    reconnecting = true;
    listener = null;
    for (let delay = 100; !closed; delay = Math.min(delay * 2, 2_000)) {
      try {
        await listen();
        // Appends made while nobody listened: every follower reads what it missed.
        handlers.onAppend('*', 0);
        break;
      } catch (error) {
        handlers.onError(error);
        await sleep(delay);
      }
    }
    reconnecting = false;
  };

  await listen();
  return {
    async close() {
      closed = true;
      const client = listener;
      listener = null;
      await client?.end().catch(() => undefined);
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
