import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createRemoteWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';

// A host page whose workspace server consumes server-everything, whose tools ask the user (see e2e/elicitation.spec.ts).
const workspace = await createRemoteWorkspace({ url: '' });
// The thread is named in the address, so a reload opens the same one (the tests share one server and one local user).
if (!location.hash) location.hash = `elicit-${crypto.randomUUID()}`;
const threadId = location.hash.slice(1);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main style={{ height: '100vh' }}>
      <ChatSurface workspace={workspace} threadStorageKey={false} defaultThreadId={threadId} />
    </main>
  </StrictMode>,
);
