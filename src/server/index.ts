// The Node entry: server-side helpers over the runtime. May import node built-ins.
export { serveThreadEvents } from '../runtime/node/serveThreadEvents';
export type { ServeThreadEventsOptions } from '../runtime/node/serveThreadEvents';
