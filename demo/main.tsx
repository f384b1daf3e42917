import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import 'chatsurface/styles.css';
import './demo.css';
import { demoCapabilities } from './capabilities';

const workspace = createLocalWorkspace({ capabilities: demoCapabilities() });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <main className="demo">
      <h1>ChatSurface demo</h1>
      <p className="demo-hint">
        Try “what can you do?”, “current time”, “add note call Ada” or “build report sections=4”.
      </p>
      <ChatSurface workspace={workspace} />
    </main>
  </StrictMode>,
);
