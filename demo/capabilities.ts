import { defineCapability, textResult } from 'chatsurface/runtime';
import { z } from 'zod';

/** A small in-page workspace: a read, a mutate and a slow verb with progress. */
export function demoCapabilities({ stepMs = 400 }: { stepMs?: number } = {}) {
  const notes: string[] = [];

  const clock = defineCapability({
    name: 'clock.now',
    title: 'Current time',
    description: 'Tells the current date and time in UTC.',
    input: z.object({}),
    output: z.object({ iso: z.string() }),
    handler: () => {
      const iso = new Date().toISOString();
      return textResult(`It is ${iso.replace('T', ' ').slice(0, 19)} UTC.`, { iso });
    },
  });

  const addNote = defineCapability({
    name: 'notes.add',
    title: 'Add note',
    description: 'Saves a short note to the workspace.',
    kind: 'mutate',
    annotations: { destructiveHint: false, idempotentHint: false, openWorldHint: false },
    input: z.object({ text: z.string().min(1, 'Write the note after the command, e.g. "add note call Ada".').max(500) }),
    handler: ({ text }) => {
      notes.push(text);
      return textResult(`Saved note ${notes.length}: “${text}”.`, { count: notes.length });
    },
  });

  const report = defineCapability({
    name: 'report.build',
    title: 'Build report',
    description: 'Builds a summary report in several steps; slow, with progress.',
    input: z.object({ sections: z.number().int().min(1).max(20).default(5) }),
    actor: { id: 'analyst', name: 'Analyst', glyph: 'A' },
    handler: async ({ sections }, ctx) => {
      for (let i = 0; i < sections; i++) {
        ctx.progress(i, sections, `Writing section ${i + 1} of ${sections}`);
        ctx.output(`section ${i + 1} written\n`);
        await sleep(stepMs, ctx.signal);
      }
      ctx.progress(sections, sections, 'Done');
      return textResult(`The report has ${sections} sections.`, { sections }, { summary: `Report with ${sections} sections` });
    },
  });

  return [clock, addNote, report];
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason instanceof Error ? signal.reason : new Error('Cancelled.'));
      },
      { once: true },
    );
  });
}
