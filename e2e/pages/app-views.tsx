import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';

// A host page whose workspace server consumes a hostile MCP App server (see e2e/app-views.spec.ts).
// With ?inline=1 the page drops the frame document the server names, so its views run inline (srcdoc):
// what a host without the kit's server gets.
const workspace = await createRemoteWorkspace({ url: '' });
if (new URLSearchParams(location.search).has('inline') && workspace.readApp) {
  const read = workspace.readApp.bind(workspace);
  workspace.readApp = async (request) => {
    const { frame: _served, ...view } = await read(request);
    return view;
  };
}
const threadId = `app-views-${crypto.randomUUID()}`;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main style={{ height: '100vh', display: 'grid' }}>
      <ChatSurface workspace={workspace} threadStorageKey={false} defaultThreadId={threadId} />
    </main>
  </StrictMode>,
);
