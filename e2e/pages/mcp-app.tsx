import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, InvocationCard, createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';

// A host page whose workspace server consumes the official MCP Apps example server (see e2e/mcp-app.spec.ts).
// The page has a secret of its own that a view must never read.
document.cookie = 'host_secret=do-not-leak; SameSite=Strict; path=/';
(window as unknown as { hostSecret: string }).hostSecret = 'window-secret';

const workspace = await createRemoteWorkspace({ url: '' });
// Every page load its own thread (the tests share one server and one local user).
const threadId = `mcp-app-${crypto.randomUUID()}`;

function Host() {
  const [apps, setApps] = useState(true);
  return (
    <main style={{ height: '100vh', display: 'grid', gridTemplateRows: 'auto 1fr' }}>
      <label>
        <input type="checkbox" checked={apps} onChange={(e) => setApps(e.target.checked)} /> Show MCP Apps
      </label>
      <InvocationCard.Defaults apps={apps}>
        <ChatSurface workspace={workspace} threadStorageKey={false} defaultThreadId={threadId} />
      </InvocationCard.Defaults>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Host />
  </StrictMode>,
);
