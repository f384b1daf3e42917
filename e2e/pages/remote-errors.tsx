import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createRemoteWorkspace, type WorkspaceManifest } from 'chatsurface';
import 'chatsurface/styles.css';

// A host page on one origin whose workspace server is another (e2e/remote-errors.spec.ts), as
// docs/server.md's two-origin set-up writes it: sign in with credentials, then every request
// with them. ?server= the server's URL; ?manifest=1 hands the workspace a manifest, so the
// surface shows even when the server refuses the page (what a page that loaded earlier has).
const params = new URLSearchParams(location.search);
const server = params.get('server')!;
const manifest: WorkspaceManifest = { capabilities: [], driver: { id: 'offline', label: 'Offline model' }, alignment: 'strict', anticipation: {} };
const withCookies: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'include' });
const root = createRoot(document.getElementById('root')!);

try {
  await withCookies(`${server}/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }).catch(() => undefined);
  const workspace = await createRemoteWorkspace({ url: server, fetch: withCookies, ...(params.has('manifest') ? { manifest } : {}) });
  root.render(
    <StrictMode>
      <main style={{ height: '100vh', display: 'grid' }}>
        <ChatSurface workspace={workspace} threadStorageKey={false} defaultThreadId={`errors-${crypto.randomUUID()}`} />
      </main>
    </StrictMode>,
  );
} catch (error) {
  // The host's own words around the kit's sentence (the reference app does the same).
  root.render(
    <p role="alert" data-part="host-error">
      The chat could not start: {error instanceof Error ? error.message : String(error)}
    </p>,
  );
}
