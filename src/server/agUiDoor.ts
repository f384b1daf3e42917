import { Hono } from 'hono';
import { isMissingModule, MissingPeerError } from '../runtime/peers';
import type { AgUiRoutesOptions } from './agUiRoutes';
import { AG_UI_SIGN_IN, errorResponse, unauthorizedResponse } from './http';

/** What the AG-UI endpoint imports: optional peers, so chatsurface/server loads them only here. */
const PEERS = ['@ag-ui/core', '@ag-ui/encoder'] as const;

/**
 * The AG-UI endpoint (`POST /v1/ag-ui`), loaded as the server starts, so chatsurface/server imports
 * without the AG-UI packages. Without them that one route answers 501 with the `MissingPeerError`'s
 * message (which package, and the command that installs it); every other route works.
 */
export async function agUiDoor(options: AgUiRoutesOptions, load: () => Promise<Pick<typeof import('./agUiRoutes'), 'agUiRoutes'>> = () => import('./agUiRoutes')): Promise<Hono> {
  try {
    const { agUiRoutes } = await load();
    return agUiRoutes(options);
  } catch (error) {
    const missing = PEERS.find((name) => isMissingModule(error, name));
    if (!missing) throw error;
    const { message } = new MissingPeerError(missing, error);
    return new Hono().post('/v1/ag-ui', async (c) =>
      (await options.principal(c.req.raw)) ? errorResponse(501, 'missing_peer', message) : unauthorizedResponse(AG_UI_SIGN_IN),
    );
  }
}
