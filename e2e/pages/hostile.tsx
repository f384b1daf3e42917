import { createRoot } from 'react-dom/client';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import { createOfflineDriver } from 'chatsurface/runtime';
import 'chatsurface/styles.css';
import { demoCapabilities } from '../../demo/capabilities';

// Two surfaces on one host page whose CSS is hostile (see hostile.html), in containers with no height.
const first = createLocalWorkspace({ capabilities: demoCapabilities(), driver: createOfflineDriver({ delayMs: 0 }) });
const second = createLocalWorkspace({ capabilities: demoCapabilities(), driver: createOfflineDriver({ delayMs: 0 }) });

createRoot(document.getElementById('root')!).render(
  <main>
    <h1>Host app</h1>
    <p className="host-note">A page styled like the Vite template: centred text, large headings, dark buttons, content-box.</p>
    <div className="slot" data-testid="first-slot">
      <ChatSurface workspace={first} threadStorageKey={false} starters={['What can you do?', 'current time']} />
    </div>
    <div className="slot" data-testid="second-slot">
      <ChatSurface workspace={second} threadStorageKey={false} />
    </div>
  </main>,
);
