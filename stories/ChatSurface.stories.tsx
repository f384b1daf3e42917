import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, type LocalWorkspace } from '../src';
import { storyWorkspace } from './fixtures';

type Args = { workspace: LocalWorkspace; theme?: 'light' | 'dark' | 'system' };

const meta = {
  title: 'ChatSurface',
  render: (args) => (
    <div style={{ height: 520 }}>
      <ChatSurface workspace={args.workspace} theme={args.theme ?? 'light'} />
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A fresh thread on the local workspace. */
export const Empty: Story = { args: { workspace: storyWorkspace() } };

/** The offline model answering a question. */
export const Conversation: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'What can you do?' });
      await args.workspace.send({ threadId: 'main', text: 'Count records please' });
      return {};
    },
  ],
};

/** A slow capability at work: its card runs and its actor stands in the cast row. */
export const Working: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      void args.workspace.send({ threadId: 'main', text: 'enrich records limit=10' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      return {};
    },
  ],
};

/** Arguments the schema refuses: the card names the field, nothing ran. */
export const InvalidArguments: Story = {
  args: { workspace: storyWorkspace() },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'enrich records limit=500' });
      return {};
    },
  ],
};

/** The dark theme. */
export const Dark: Story = {
  args: { workspace: storyWorkspace(), theme: 'dark' },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'Count records' });
      return {};
    },
  ],
};
