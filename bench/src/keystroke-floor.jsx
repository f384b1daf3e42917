// The floor of bench/slash-keystroke.mjs: a bare React page with a controlled message box and
// nothing else, measured with the same probe and the same keys as the kit's combobox. Whatever
// this page takes is the browser's (input delivery, the wait for the next frame, painting).
// With ?highlight=1 the box has six plain options under it and ↓/↑ move a highlight band over
// them (one transform, written to the element, no render): the least a key that changes what is
// on screen costs, beside the bare box, whose ↓ changes nothing on screen. With ?highlight=scroll
// there are sixty options in a list that shows six, and a ↓ that takes the band out of view also
// scrolls the list one option (scrollTop), as a long list's must: the least such a key costs.
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { installKeystrokeProbe } from './keystrokeProbe.js';

installKeystrokeProbe();

const HIGHLIGHT = new URLSearchParams(location.search).get('highlight');
const SCROLLED = HIGHLIGHT === 'scroll';
const SHOWN = 6;
const OPTIONS = SCROLLED ? 60 : SHOWN;
const OPTION_HEIGHT = 48;

function Floor({ ref }) {
  const [value, setValue] = useState('');
  return <textarea ref={ref} aria-label="Message" rows={1} value={value} onChange={(event) => setValue(event.target.value)} />;
}

function FloorWithHighlight() {
  const box = useRef(null);
  const band = useRef(null);
  useEffect(() => {
    let at = 0;
    let scrolled = 0;
    const onKey = (event) => {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      at = (at + (event.key === 'ArrowDown' ? 1 : OPTIONS - 1)) % OPTIONS;
      band.current.style.transform = `translateY(${at * OPTION_HEIGHT}px)`;
      if (SCROLLED) {
        // Scrolled so the option is in view: to its top when above, to its bottom when below
        // (where the list is scrolled is kept, not read: the bench never scrolls it by hand).
        const top = at * OPTION_HEIGHT;
        const to = top < scrolled ? top : Math.max(scrolled, top + OPTION_HEIGHT - SHOWN * OPTION_HEIGHT);
        if (to !== scrolled) band.current.parentElement.scrollTop = scrolled = to;
      }
    };
    const el = box.current;
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <div style={{ position: 'relative', width: 440, background: '#fff', ...(SCROLLED ? { height: SHOWN * OPTION_HEIGHT, overflowY: 'auto' } : {}) }}>
        <div ref={band} aria-hidden="true" style={{ position: 'absolute', top: 0, left: 0, right: 0, height: OPTION_HEIGHT, borderRadius: 6, background: '#e8eefc' }} />
        {Array.from({ length: OPTIONS }, (_, i) => (
          <div key={i} style={{ position: 'relative', height: OPTION_HEIGHT, padding: '4px 10px', boxSizing: 'border-box' }}>
            <strong>/team-{400 + i}</strong>
            <div>Option {i + 1}</div>
          </div>
        ))}
      </div>
      <Floor ref={box} />
    </>
  );
}
createRoot(document.getElementById('root')).render(HIGHLIGHT === '1' || SCROLLED ? <FloorWithHighlight /> : <Floor />);
