import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CSSProperties } from 'react';
import { ChatSurface, type WorkspaceAdapter } from '../src';
import { storyWorkspace } from './fixtures';

/**
 * How the surface sizes itself in its container (docs/surface.md#sizing): it fills a container
 * with a height (data-size="fill"), and takes its default height, scrolling inside, in a container
 * that only has a min-height or follows its content (data-size="default").
 */
type Args = { workspace: WorkspaceAdapter; parent: CSSProperties; prose?: boolean };

const paragraph = (
  <p style={{ margin: '12px 0', maxWidth: 640 }}>
    The host page's own text. The page scrolls as a whole; the chat is one more block among its paragraphs.
  </p>
);

const meta = {
  title: 'Sizing',
  render: (args) => (
    <div style={args.parent}>
      {args.prose && paragraph}
      <ChatSurface workspace={args.workspace} theme="light" />
      {args.prose && paragraph}
    </div>
  ),
  loaders: [
    async ({ args }) => {
      for (const text of ['hello', 'What can you do?', 'Count records please']) await args.workspace.send({ threadId: 'main', text });
      return {};
    },
  ],
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** A container with a height: the surface fills it (data-size="fill"). */
export const FillsItsContainer: Story = { args: { workspace: storyWorkspace(), parent: { height: 420 } } };

/** A flex column that only has a min-height, like create-vite's #root: the default height, scrolling inside. */
export const MinHeightColumn: Story = {
  args: { workspace: storyWorkspace(), parent: { display: 'flex', flexDirection: 'column', minHeight: '100svh' } },
};

/** An ordinary block in a page that scrolls: the default height; the page does not grow with the transcript. */
export const InAScrollingPage: Story = { args: { workspace: storyWorkspace(), parent: {}, prose: true } };
