// The floor of bench/slash-keystroke.mjs: a bare React page with a controlled message box and
// nothing else, measured with the same probe and the same keys as the kit's combobox. Whatever
// this page takes is the browser's (input delivery, the wait for the next frame, painting).
// With ?highlight=1 the box has six plain options under it and ↓/↑ move a highlight band over
// them (one transform, written to the element, no render): the least a key that changes what is
// on screen costs, beside the bare box, whose ↓ changes nothing on screen.
import { useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { installKeystrokeProbe } from './keystrokeProbe.js';

installKeystrokeProbe();

const HIGHLIGHT = new URLSearchParams(location.search).get('highlight') === '1';
const OPTIONS = 6;
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
    const onKey = (event) => {
      if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
      event.preventDefault();
      at = (at + (event.key === 'ArrowDown' ? 1 : OPTIONS - 1)) % OPTIONS;
      band.current.style.transform = `translateY(${at * OPTION_HEIGHT}px)`;
    };
    const el = box.current;
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, []);
  return (
    <>
      <div style={{ position: 'relative', width: 440, background: '#fff' }}>
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
createRoot(document.getElementById('root')).render(HIGHLIGHT ? <FloorWithHighlight /> : <Floor />);
