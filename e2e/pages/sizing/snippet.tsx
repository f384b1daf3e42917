import { ChatSurface, createLocalWorkspace } from 'chatsurface';
import { createOfflineDriver, defineCapability, textResult } from 'chatsurface/runtime';
import 'chatsurface/styles.css';
import { z } from 'zod';

// The README's "Using it" snippet as written, but for the driver: the offline model answers
// at once (delayMs 0) so the spec waits on no typing effect.
const addNote = defineCapability({
  name: 'notes.add',
  title: 'Add note',
  description: 'Saves a short note.',
  kind: 'mutate',
  annotations: { destructiveHint: false },
  input: z.object({ text: z.string().min(1) }),
  handler: async ({ text }, ctx) => {
    ctx.progress(1, 2, 'Saving');
    return textResult(`Saved “${text}”.`, { saved: true });
  },
});

const workspace = createLocalWorkspace({ capabilities: [addNote], driver: createOfflineDriver({ delayMs: 0 }) });

export const Screen = () => <ChatSurface workspace={workspace} activeView={{ kind: 'notes' }} />;
