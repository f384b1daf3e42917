// The size page: what a host app ships to put the assembled chat on a page, one capability defined
// (with zod/mini, the smaller zod a page would use; classic zod schemas work the same).
import { createRoot } from 'react-dom/client';
import * as z from 'zod/mini';
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
