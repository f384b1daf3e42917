import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { deferred } from './deferred';

function Counter({ label }: { label: string }) {
  const [n, setN] = useState(0);
  return (
    <button type="button" onClick={() => setN(n + 1)}>
      {label} {n}
    </button>
  );
}

describe('deferred parts', () => {
  it('shows the fallback until the code arrives, then the part, which keeps its state across renders', async () => {
    let arrive!: () => void;
    const part = deferred<{ label: string }>(() => new Promise((ok) => (arrive = () => ok(Counter))), 'Test.Counter', <p role="status">Opening…</p>);
    // (act around render, as React asks of parts that suspend)
    const { rerender } = await act(async () => render(<part.Part label="Count" />));
    expect(screen.getByRole('status')).toHaveTextContent('Opening…');
    await act(async () => arrive());
    const button = await screen.findByRole('button', { name: 'Count 0' });
    await userEvent.click(button);
    rerender(<part.Part label="Clicks" />);
    expect(screen.getByRole('button')).toHaveTextContent('Clicks 1');
  });

  it('preload fetches the code once, so the part renders at once afterwards', async () => {
    let loads = 0;
    const part = deferred(async () => {
      loads += 1;
      return Counter;
    }, 'Test.Counter');
    await part.preload();
    await part.preload();
    render(<part.Part label="Ready" />);
    expect(await screen.findByRole('button', { name: 'Ready 0' })).toBeInTheDocument();
    expect(loads).toBe(1);
  });

  it('renders at once, with no fallback, when its load can tell the code is there already', () => {
    const part = deferred<{ label: string }>(() => Counter, 'Test.Counter', <p role="status">Opening…</p>);
    render(<part.Part label="Here" />);
    expect(screen.getByRole('button', { name: 'Here 0' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says what could not be loaded and why, and loads again when mounted again', async () => {
    let fail = true;
    const part = deferred(async () => {
      if (fail) throw new Error('chunk SlashPopup-1.js: 404');
      return Counter;
    }, 'Test.Counter', null, 'The skill list');
    const first = await act(async () => render(<part.Part label="Again" />));
    expect(await screen.findByRole('alert')).toHaveTextContent('The skill list could not be loaded (chunk SlashPopup-1.js: 404). Reload the page to try again; your draft is kept.');
    first.unmount();
    fail = false;
    await act(async () => render(<part.Part label="Again" />));
    expect(await screen.findByRole('button', { name: 'Again 0' })).toBeInTheDocument();
  });
});
