// The size page: what a host app ships to put the assembled chat on a page, one capability defined.
import { createRoot } from 'react-dom/client';
import { z } from 'zod';
import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import { defineCapability, textResult } from 'chatsurface/runtime';
import 'chatsurface/styles.css';

const add = defineCapability({
  name: 'math.add',
  title: 'Add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number() }),
  handler: ({ a, b }) => textResult(String(a + b), { sum: a + b }),
});
const workspace = createLocalWorkspace({ capabilities: [add] });
createRoot(document.getElementById('root')).render(<ChatSurface workspace={workspace} />);
