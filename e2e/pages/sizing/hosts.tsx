import { useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { Screen } from './snippet';

// The hand-written parents (see the <style> of each page): the README snippet in each.
const root = document.getElementById('root')!;
const prose = (n: number) =>
  Array.from({ length: n }, (_, i) => (
    <p key={i}>
      Paragraph {i + 1} of the host page. The page scrolls as a whole; the chat sits among its paragraphs as one more block and
      keeps its own scrolling to itself.
    </p>
  ));

/** ?hidden: the surface is first rendered inside a closed panel (display: none), opened by a button. */
function HiddenPanel() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} hidden={open}>
        Open the chat
      </button>
      <div style={{ display: open ? 'contents' : 'none' }}>
        <Screen />
      </div>
    </>
  );
}

const pages: Record<string, () => ReactNode> = {
  'flex-min-height': () => (
    <>
      <header>
        <h1>Host app</h1>
      </header>
      {new URLSearchParams(location.search).has('hidden') ? <HiddenPanel /> : <Screen />}
    </>
  ),
  'grid-cell': () => (
    <>
      <header>
        <h1>Host app</h1>
      </header>
      <nav aria-label="Host">
        <a href="#records">Records</a>
      </nav>
      <div className="chat-cell">
        <Screen />
      </div>
    </>
  ),
  'scrolling-block': () => (
    <main>
      <h1>Host article</h1>
      {prose(6)}
      <div className="chat-block">
        <Screen />
      </div>
      {prose(10)}
    </main>
  ),
};

createRoot(root).render(pages[root.dataset.fixture ?? '']!());
