// The floor of bench/slash-keystroke.mjs: a bare React page with a controlled message box and
// nothing else, measured with the same probe and the same keys as the kit's combobox. Whatever
// this page takes is the browser's (input delivery, the wait for the next frame, painting).
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { installKeystrokeProbe } from './keystrokeProbe.js';

installKeystrokeProbe();

function Floor() {
  const [value, setValue] = useState('');
  return <textarea aria-label="Message" rows={1} value={value} onChange={(event) => setValue(event.target.value)} />;
}
createRoot(document.getElementById('root')).render(<Floor />);
