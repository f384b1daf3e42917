import { isMissingModule, MissingPeerError } from '../runtime/peers';

/** What the AG-UI workspace needs of its optional peers at run time. */
export interface AgUiModules {
  HttpAgent: typeof import('@ag-ui/client').HttpAgent;
  EventType: typeof import('@ag-ui/core').EventType;
}

const PEERS = ['@ag-ui/client', '@ag-ui/core'] as const;

/** The two packages, as `import()` gives them (a test passes its own). */
type ImportAgUi = () => Promise<readonly [Pick<typeof import('@ag-ui/client'), 'HttpAgent'>, Pick<typeof import('@ag-ui/core'), 'EventType'>]>;

const importAgUi: ImportAgUi = () => Promise.all([import('@ag-ui/client'), import('@ag-ui/core')]);

/**
 * Loads `@ag-ui/client` and `@ag-ui/core` on the first run, so chatsurface/ag-ui imports without them
 * and a page that never runs an agent never downloads them. A missing package rejects with a
 * {@link MissingPeerError} naming it and the command that installs it.
 */
export function loadAgUi(load: ImportAgUi = importAgUi): Promise<AgUiModules> {
  return load().then(
    ([client, core]) => ({ HttpAgent: client.HttpAgent, EventType: core.EventType }),
    (error: unknown) => {
      const missing = PEERS.find((name) => isMissingModule(error, name));
      throw missing ? new MissingPeerError(missing, error) : error;
    },
  );
}
