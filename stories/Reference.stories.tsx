import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface } from '../src';
import { createInPageReferenceWorkspace, type InPageReferenceWorkspace } from '../reference/workspace/inPage';

/** The reference records workspace, entirely in the page: same verbs, checks and suggestions as the demo server. */
type Args = { reference: InPageReferenceWorkspace | null };

async function prepared(steps: (w: InPageReferenceWorkspace) => Promise<void>) {
  const reference = await createInPageReferenceWorkspace({ enrichDelayMs: 0, now: () => 1_700_000_000_000 });
  await steps(reference);
  return { reference };
}

const meta = {
  title: 'Reference workspace',
  args: { reference: null },
  render: (_args, { loaded }) => {
    const { reference } = loaded as { reference: InPageReferenceWorkspace };
    return (
      <div style={{ height: 560 }}>
        <ChatSurface workspace={reference.workspace} activeView={{ kind: 'record_list', title: 'Records' }} theme="light" virtualize={false} />
      </div>
    );
  },
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A fresh records screen: the chips offer an import. */
export const Fresh: Story = { loaders: [() => prepared(async () => {})] };

/** After importing customers.csv and enriching: the chips offer the export. */
export const ImportedAndEnriched: Story = {
  loaders: [
    () =>
      prepared(async ({ workspace }) => {
        workspace.setView({ threadId: 'main', view: { kind: 'record_list' } });
        await workspace.invoke({ threadId: 'main', capability: 'records.import_csv', args: { file: 'customers.csv' } });
        await workspace.invoke({ threadId: 'main', capability: 'enrich.batch', args: { limit: 10 } });
      }),
  ],
};

/** A CSV whose rows insert nothing: the card stays done and a failed check is shown. */
export const BadCsvViolation: Story = {
  loaders: [
    () =>
      prepared(async ({ workspace }) => {
        await workspace.send({ threadId: 'main', text: 'Import CSV broken.csv' });
      }),
  ],
};

/** "export to CRM": the export waits for approval. */
export const ExportAwaitingApproval: Story = {
  loaders: [
    () =>
      prepared(async ({ workspace }) => {
        await workspace.invoke({ threadId: 'main', capability: 'records.import_csv', args: { file: 'customers.csv' } });
        await workspace.send({ threadId: 'main', text: 'export to CRM' });
      }),
  ],
};
