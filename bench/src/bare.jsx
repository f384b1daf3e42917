// The size baseline: a bare React + react-dom hello world, the same as the shared harness's apps/bare.
import { createRoot } from 'react-dom/client';
function App() { return <h1>Hello</h1>; }
createRoot(document.getElementById('root')).render(<App />);
