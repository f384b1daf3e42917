import { act, render, screen } from '@testing-library/react';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineCapability } from '../../runtime/capability';
import { textResult } from '../../runtime/results';
import type { ThreadEventInput } from '../../runtime/events';
import { stubTranscriptLayout, type LayoutStub } from '../testing/layout';
import { staticClosure } from '../../test/staticImports';

// The rows a turn adds (proposal, approval, question, check, standing request, skill offer,
// sub-thread rows) are one chunk that the surface loads on first use, not in the page's first script.
const here = dirname(fileURLToPath(import.meta.url));

const enrich = defineCapability({
  name: 'records.enrich',
  title: 'Enrich records',
  description: 'Adds company data.',
  input: z.object({ limit: z.number() }),
  handler: ({ limit }) => textResult(`Enriched ${limit} records.`),
});
const proposal: ThreadEventInput = { type: 'proposal.created', proposal_id: 'p1', capability: 'records.enrich', title: 'Enrich records', args: { limit: 10 }, reason: 'Ten records have no company.' };

/** A surface over a scripted log, with the modules loaded afresh (no row code loaded yet). */
async function freshSurface() {
  vi.resetModules();
  const [{ ChatSurface }, { scriptedWorkspace }] = await Promise.all([import('../chat-surface/ChatSurface'), import('../testing/scriptedWorkspace')]);
  const ws = scriptedWorkspace({ capabilities: [enrich] });
  render(<ChatSurface workspace={ws} theme="light" threadStorageKey={false} />);
  const emit = (event: ThreadEventInput) => act(() => void ws.log.emit(event));
  return { emit };
}

/** Every loading placeholder of a row that shows up in the page, until `stop`. */
function watchPlaceholders() {
  const seen = new Map<Element, { part: string | null; busy: string | null; status: string | null }>();
  const look = () => {
    for (const el of document.querySelectorAll('article[data-state="loading"]')) {
      if (!seen.has(el)) seen.set(el, { part: el.getAttribute('data-part'), busy: el.getAttribute('aria-busy'), status: el.querySelector('[role="status"]')?.textContent ?? null });
    }
  };
  const observer = new MutationObserver(look);
  observer.observe(document.body, { childList: true, subtree: true });
  return {
    stop() {
      observer.disconnect();
      return [...seen.values()];
    },
  };
}

let layout: LayoutStub;
beforeEach(() => {
  layout = stubTranscriptLayout();
});
afterEach(() => layout.restore());

describe('the rows a turn adds', () => {
  it('are not in the static imports of the surface or the transcript', () => {
    for (const entry of ['../chat-surface/ChatSurface.tsx', '../transcript/TranscriptRow.tsx']) {
      const closure = staticClosure(resolve(here, entry));
      expect(closure, entry).toContain(resolve(here, 'deferredRows.tsx'));
      for (const row of ['turnRows.ts', 'ProposalRow.tsx', 'ApprovalRow.tsx', 'QuestionRow.tsx', 'SubThreadRow.tsx', 'RowFrame.tsx', 'ArgsSummary.tsx']) {
        expect(closure, `${entry} → ${row}`).not.toContain(resolve(here, row));
      }
      expect(closure, `${entry} → the invocation card`).not.toContain(resolve(here, '../invocation-card/InvocationCard.tsx'));
    }
  });

  it('a row that comes before its code says what it is loading, in its own frame, then shows the row', async () => {
    const { emit } = await freshSurface();
    const seen = watchPlaceholders();
    emit(proposal);
    const row = await screen.findByRole('article', { name: 'Enrich records' });
    expect(seen.stop()).toEqual([{ part: 'proposal', busy: 'true', status: 'Loading the suggested action…' }]);
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(row).toHaveTextContent('Ten records have no company.');
    expect(document.querySelector('[data-state="loading"]')).toBeNull();
  });

  it('load once the user is in the surface, so the rows of the turn they start render at once', async () => {
    const { emit } = await freshSurface();
    const seen = watchPlaceholders();
    emit({ type: 'message.created', message_id: 'm1', role: 'user', text: 'enrich the records', turn_id: 't1' });
    // A message alone starts no load (its chunk would come in while the reply streams): the user
    // stepping into the surface does, when the browser is idle after that (jsdom: 50 ms later).
    act(() => screen.getByRole('textbox', { name: 'Message' }).focus());
    await act(async () => {
      await new Promise((ok) => setTimeout(ok, 200));
      await import('./turnRows');
    });
    emit(proposal);
    const row = await screen.findByRole('article', { name: 'Enrich records' });
    expect(row).toHaveAttribute('data-state', 'pending');
    expect(seen.stop()).toEqual([]);
  });
});
