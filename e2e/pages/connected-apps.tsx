import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';

// A host page whose workspace server lets each user connect their own MCP servers (see e2e/connected-apps.spec.ts).
// Who is signed in: `?user=` (alice by default), as a cookie the server reads.
const user = new URLSearchParams(location.search).get('user') ?? 'alice';
document.cookie = `e2e_user=${user}; SameSite=Strict; path=/`;

const workspace = await createRemoteWorkspace({ url: '' });
// Every page load its own thread.
const threadId = `connected-apps-${crypto.randomUUID()}`;

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main style={{ height: '100vh', display: 'grid' }}>
      <ChatSurface workspace={workspace} threadStorageKey={false} defaultThreadId={threadId} />
    </main>
  </StrictMode>,
);
