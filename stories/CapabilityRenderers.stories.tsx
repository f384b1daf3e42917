import type { Meta, StoryObj } from '@storybook/react-vite';
import { createContext, useContext, useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react';
import { z } from 'zod';
import { ChatSurface, createLocalWorkspace, InvocationCard, type CapabilityRenderer, type CapabilityRenderers } from '../src';
import { createOfflineDriver, defineCapability, textResult, type InvocationRow } from '../src/runtime';
import { storyWorkspace } from './fixtures';

// A host's own component for a capability's result (issue 41 item 5): the host's component draws
// the card's body; the kit keeps the title, status line, Cancel, checks and Details around it.

const workspace = storyWorkspace();

// --- A table: `records.list` shows its rows from `structuredContent` ---

interface ListArgs {
  stage: string;
}
interface Contact {
  name: string;
  company: string;
  stage: string;
}
interface ListResult {
  records: Contact[];
}

const cell: CSSProperties = { padding: '4px 8px', borderBottom: '1px solid var(--cs-border)', textAlign: 'start' };

/** Rows as a table once done; while it runs, the kit's own progress bar with a line of its own. */
const RecordsTable: CapabilityRenderer<ListArgs, ListResult> = ({ args, result, state }) => {
  if (state === 'queued' || state === 'running') {
    return (
      <>
        <p style={{ margin: '0 0 4px' }}>Looking up {args.stage} contacts…</p>
        <InvocationCard.Progress />
      </>
    );
  }
  const records = result?.structured?.records ?? [];
  if (!records.length) return <p style={{ margin: 0 }}>No {args.stage} contacts.</p>;
  return (
    <table style={{ borderCollapse: 'collapse', width: '100%', fontSize: 13 }}>
      <caption style={{ textAlign: 'start', fontWeight: 600, paddingBottom: 4 }}>
        {records.length} {args.stage} contacts
      </caption>
      <thead>
        <tr>
          <th scope="col" style={cell}>Name</th>
          <th scope="col" style={cell}>Company</th>
          <th scope="col" style={cell}>Stage</th>
        </tr>
      </thead>
      <tbody>
        {records.map((r) => (
          <tr key={r.name}>
            <td style={cell}>{r.name}</td>
            <td style={cell}>{r.company}</td>
            <td style={cell}>{r.stage}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
};

const contacts: Contact[] = [
  { name: 'Ada Lovelace', company: 'Analytical Engines', stage: 'lead' },
  { name: 'Grace Hopper', company: 'Compilers Inc.', stage: 'lead' },
  { name: 'Katherine Johnson', company: 'Orbital Math', stage: 'lead' },
];
const listBase = { kind: 'invocation' as const, capability: 'records.list', title: 'List contacts', args: { stage: 'lead' }, output: '', outputTruncated: false, startedAt: 0 };
const listDone: InvocationRow = {
  ...listBase,
  id: 'inv_list_done',
  state: 'done',
  endedAt: 640,
  result: textResult('Found 3 lead contacts.', { records: contacts }, { kind: 'table' }),
};
const listRunning: InvocationRow = { ...listBase, id: 'inv_list_running', state: 'running', progress: { progress: 1, total: 3, message: 'Reading page 1 of 3' } };

// --- A chart: `sales.by_month` as inline SVG bars, named, with the numbers as a table too ---

interface SalesResult {
  unit: string;
  months: { month: string; total: number }[];
}

const SalesChart: CapabilityRenderer<{ year: number }, SalesResult> = ({ args, result, state }) => {
  const titleId = useId();
  if (state !== 'done' || !result?.structured) return null;
  const { months, unit } = result.structured;
  const max = Math.max(1, ...months.map((m) => m.total));
  const barWidth = 36;
  const gap = 12;
  const height = 120;
  const width = months.length * (barWidth + gap);
  return (
    <figure style={{ margin: 0 }}>
      <figcaption id={titleId} style={{ fontWeight: 600, marginBottom: 4 }}>
        Sales by month, {args.year} ({unit})
      </figcaption>
      <svg role="img" aria-labelledby={titleId} viewBox={`0 0 ${width} ${height + 20}`} width={width} height={height + 20} style={{ maxWidth: '100%', height: 'auto' }}>
        {months.map((m, i) => {
          const h = Math.round((m.total / max) * height);
          return (
            <g key={m.month}>
              <rect x={i * (barWidth + gap)} y={height - h} width={barWidth} height={h} rx={3} style={{ fill: 'var(--cs-accent)' }} />
              <text x={i * (barWidth + gap) + barWidth / 2} y={height + 14} textAnchor="middle" style={{ fill: 'var(--cs-fg)', fontSize: 11 }}>
                {m.month}
              </text>
            </g>
          );
        })}
      </svg>
      <details>
        <summary>The chart as a table</summary>
        <table style={{ borderCollapse: 'collapse', fontSize: 13 }}>
          <thead>
            <tr>
              <th scope="col" style={cell}>Month</th>
              <th scope="col" style={cell}>Sales ({unit})</th>
            </tr>
          </thead>
          <tbody>
            {months.map((m) => (
              <tr key={m.month}>
                <td style={cell}>{m.month}</td>
                <td style={cell}>{m.total}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
};

const salesDone: InvocationRow = {
  kind: 'invocation',
  id: 'inv_sales',
  capability: 'sales.by_month',
  title: 'Sales by month',
  args: { year: 2026 },
  state: 'done',
  output: '',
  outputTruncated: false,
  startedAt: 0,
  endedAt: 310,
  result: textResult('Sales peaked in March.', {
    unit: 'thousand €',
    months: [
      { month: 'Jan', total: 12 },
      { month: 'Feb', total: 18 },
      { month: 'Mar', total: 24 },
      { month: 'Apr', total: 15 },
      { month: 'May', total: 20 },
    ],
  }),
};

// --- A form: `invoice.draft` shows its arguments read-only; its button calls the host ---

interface InvoiceArgs {
  customer: string;
  amount: number;
  due: string;
}

/** What the host's app lets a renderer do: renderers are the host's components, inside its own providers. */
const HostActions = createContext<{ sendInvoice: (invoice: InvoiceArgs) => void }>({ sendInvoice: () => undefined });

const field: CSSProperties = { display: 'grid', gap: 2, fontSize: 13 };
const input: CSSProperties = { font: 'inherit', padding: '4px 6px', border: '1px solid var(--cs-border)', borderRadius: 6, background: 'var(--cs-surface)', color: 'var(--cs-fg)' };

const InvoiceForm: CapabilityRenderer<InvoiceArgs> = ({ args, state }) => {
  const { sendInvoice } = useContext(HostActions);
  const id = useId();
  return (
    <form
      aria-label={`Invoice draft for ${args.customer}`}
      style={{ display: 'grid', gap: 8, maxWidth: 320 }}
      onSubmit={(event) => {
        event.preventDefault();
        sendInvoice(args);
      }}
    >
      <label style={field} htmlFor={`${id}-customer`}>
        Customer
        <input id={`${id}-customer`} style={input} readOnly value={args.customer} />
      </label>
      <label style={field} htmlFor={`${id}-amount`}>
        Amount (€)
        <input id={`${id}-amount`} style={input} readOnly inputMode="decimal" value={args.amount.toFixed(2)} />
      </label>
      <label style={field} htmlFor={`${id}-due`}>
        Due
        <input id={`${id}-due`} style={input} readOnly type="date" value={args.due} />
      </label>
      <button type="submit" disabled={state !== 'done'} style={{ justifySelf: 'start', font: 'inherit', padding: '4px 12px', border: 0, borderRadius: 6, background: 'var(--cs-accent)', color: 'var(--cs-accent-fg)', cursor: 'pointer' }}>
        Send the invoice
      </button>
    </form>
  );
};

const invoiceDone: InvocationRow = {
  kind: 'invocation',
  id: 'inv_invoice',
  capability: 'invoice.draft',
  title: 'Invoice draft',
  args: { customer: 'Analytical Engines', amount: 1250, due: '2026-07-31' },
  state: 'done',
  output: '',
  outputTruncated: false,
  startedAt: 0,
  endedAt: 90,
  result: textResult('Drafted an invoice of €1,250.00 for Analytical Engines.', { invoice_id: 'INV-0042' }),
};

// --- The stories ---

const renderers: CapabilityRenderers = { 'records.list': RecordsTable, 'sales.by_month': SalesChart, 'invoice.draft': InvoiceForm };

function Cards({ rows, map = renderers, children }: { rows: InvocationRow[]; map?: CapabilityRenderers; children?: ReactNode }) {
  return (
    <ChatSurface.Root workspace={workspace} theme="light">
      <InvocationCard.Defaults renderers={map}>
        <div style={{ display: 'grid', gap: 12 }}>
          {rows.map((row) => (
            <InvocationCard key={row.id} row={row} />
          ))}
        </div>
        {children}
      </InvocationCard.Defaults>
    </ChatSurface.Root>
  );
}

const meta = { title: 'Capability renderers' } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** `records.list` rendered by the host as a table from `structuredContent`; the status line and Details are the kit's. */
export const Table: Story = { render: () => <Cards rows={[listDone]} /> };

/** The same renderer while the invocation runs: its own line over the kit's progress bar (`<InvocationCard.Progress />`), with the kit's Cancel. */
export const TableRunning: Story = { render: () => <Cards rows={[listRunning]} /> };

/** `sales.by_month` as inline SVG bars: a named image, its numbers as a table under a disclosure. */
export const Chart: Story = { render: () => <Cards rows={[salesDone]} /> };

/** `invoice.draft` shows its arguments as a read-only form; Send calls the host's own function (here it says what it sent). */
export const Form: Story = {
  render: function FormStory() {
    const [sent, setSent] = useState<string | null>(null);
    return (
      <HostActions.Provider value={{ sendInvoice: (invoice) => setSent(`Sent the invoice to ${invoice.customer}.`) }}>
        <Cards rows={[invoiceDone]}>
          <p role="status" style={{ minHeight: '1.5em' }}>
            {sent}
          </p>
        </Cards>
      </HostActions.Provider>
    );
  },
};

const Broken: CapabilityRenderer<ListArgs, ListResult> = ({ result }) => {
  // A renderer written for another shape of result: it throws on this one.
  return <p>{(result?.structured as unknown as { rows: Contact[] }).rows.length} rows</p>;
};

/** A renderer that throws: the card shows its usual body under a short note (the error is logged); the transcript is unharmed. */
export const RendererFails: Story = { render: () => <Cards rows={[listDone]} map={{ 'records.list': Broken }} /> };

/** The assembled surface with `renderers`: a `records.list` run in the thread is drawn by the host's table. */
export const InSurface: Story = {
  render: function InSurfaceStory() {
    const [surface] = useState(surfaceWorkspace);
    useEffect(() => {
      void surface.invoke({ threadId: 'renderers', capability: 'records.list', args: { stage: 'lead' } });
    }, [surface]);
    return (
      <div style={{ height: 520 }}>
        <ChatSurface workspace={surface} theme="light" threadId="renderers" threadStorageKey={false} renderers={renderers} />
      </div>
    );
  },
};

function surfaceWorkspace() {
  const list = defineCapability({
    name: 'records.list',
    title: 'List contacts',
    description: 'Lists the contacts at a stage.',
    input: z.object({ stage: z.string() }),
    handler: ({ stage }) => textResult(`Found 3 ${stage} contacts.`, { records: contacts.filter((c) => c.stage === stage) }, { kind: 'table' }),
  });
  return createLocalWorkspace({ capabilities: [list], driver: createOfflineDriver({ delayMs: 0 }), now: () => 1_700_000_000_000 });
}
