import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect } from 'react';
import { ChatSurface, ThreadList, type MessagesOverride, type ThreadsApi, type ThreadSummary } from '../src';
import { useThreadList } from '../src/components/thread-list/context';
import { ar } from './locales/ar';
import { de } from './locales/de';
import { storyWorkspace } from './fixtures';

/** A fixed clock, so every story shows the same dates. */
const DAY = 86_400_000;
const T0 = Date.UTC(2026, 10, 30, 9, 30);

const sample: ThreadSummary[] = [
  { id: 'q3', title: 'Summarise the Q3 report', preview: 'Revenue grew 12 percent, mostly in Berlin and Paris.', lastActivity: T0, archived: false },
  { id: 'csv', title: 'Import the customers CSV', preview: 'Imported 120 customers; 3 rows had no e-mail address.', lastActivity: T0 - DAY, archived: false },
  { id: 'letter', title: 'Draft the supplier letter', preview: 'Here is a first draft you can edit.', lastActivity: T0 - 3 * DAY, archived: false },
  { id: 'old', title: 'Plan the 2025 offsite', preview: 'The venue is booked.', lastActivity: T0 - 40 * DAY, archived: true },
];

/** A thread list in the page: `sample` searched, renamed, archived and deleted in memory. */
function fixtureThreads(all: ThreadSummary[] = sample, pageSize?: number): ThreadsApi {
  let threads = all.map((t) => ({ ...t }));
  const find = (id: string) => {
    const thread = threads.find((t) => t.id === id);
    if (!thread) throw new Error(`There is no thread "${id}" here`);
    return thread;
  };
  return {
    async list({ search = '', archived = false, limit = 20, cursor } = {}) {
      const words = search.toLowerCase().split(/\s+/).filter(Boolean);
      const found = threads.filter((t) => t.archived === archived && words.every((w) => `${t.title} ${t.preview}`.toLowerCase().includes(w)));
      const start = cursor ? Number(cursor) : 0;
      const size = pageSize ?? limit;
      return { threads: found.slice(start, start + size), nextCursor: start + size < found.length ? String(start + size) : null };
    },
    async rename({ threadId, title }) {
      return Object.assign(find(threadId), { title: title.trim() });
    },
    async setArchived({ threadId, archived }) {
      return Object.assign(find(threadId), { archived });
    },
    async remove(threadId) {
      find(threadId);
      threads = threads.filter((t) => t.id !== threadId);
    },
  };
}

const never: ThreadsApi = { list: () => new Promise(() => undefined), rename: async () => sample[0]!, setArchived: async () => sample[0]!, remove: async () => undefined };
const failing: ThreadsApi = { ...never, list: async () => Promise.reject(new Error('the workspace server did not answer')) };

/** Opens the rename field or the delete confirmation on the first thread, as F2 or Delete would. */
function Opened({ part }: { part: 'rename' | 'confirm' }) {
  const list = useThreadList('Opened');
  const first = list.threads[0]?.id;
  useEffect(() => {
    if (first) (part === 'rename' ? list.setRenaming : list.setConfirming)(first);
  }, [first]);
  return null;
}

type Args = {
  threads: ThreadsApi;
  width?: number;
  defaultSearch?: string;
  defaultArchived?: boolean;
  open?: 'rename' | 'confirm';
  locale?: string;
  dir?: 'ltr' | 'rtl';
  messages?: MessagesOverride;
};

const meta = {
  title: 'ThreadList',
  render: ({ threads, width = 420, open, locale, dir, messages, ...rest }) => (
    <div style={{ width, maxWidth: '100%' }}>
      <ChatSurface.Root workspace={storyWorkspace()} threadId="q3" theme="light" {...(locale ? { locale } : {})} {...(dir ? { dir } : {})} {...(messages ? { messages } : {})}>
        <ThreadList.Root threads={threads} {...rest}>
          <div data-part="thread-list-tools">
            <ThreadList.Search />
            <ThreadList.Filter />
          </div>
          <ThreadList.Status />
          <ThreadList.Items />
          <ThreadList.More />
          <ThreadList.Confirm />
          {open ? <Opened part={open} /> : null}
        </ThreadList.Root>
      </ChatSurface.Root>
    </div>
  ),
} satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

/** The user's threads, newest first; the one the surface shows is marked. Arrow keys move, F2 renames, Delete asks. */
export const Ready: Story = { args: { threads: fixtureThreads() } };
/** No thread yet. */
export const Empty: Story = { args: { threads: fixtureThreads([]) } };
/** Waiting for the workspace. */
export const Loading: Story = { args: { threads: never } };
/** The list could not load: the reason and "Try again". */
export const LoadError: Story = { args: { threads: failing } };
/** A search that matches nothing. */
export const NoResults: Story = { args: { threads: fixtureThreads(), defaultSearch: 'zanzibar' } };
/** A search that matches. */
export const Searched: Story = { args: { threads: fixtureThreads(), defaultSearch: 'berlin' } };
/** "Show archived". */
export const Archived: Story = { args: { threads: fixtureThreads(), defaultArchived: true } };
/** Two threads a page: "Show more" brings the next. */
export const Paged: Story = { args: { threads: fixtureThreads(sample, 2) } };
/** A thread's name edited in place. */
export const Renaming: Story = { args: { threads: fixtureThreads(), open: 'rename' } };
/** The confirmation a delete waits for. */
export const ConfirmDelete: Story = { args: { threads: fixtureThreads(), open: 'confirm' } };
/** At 390 px, a phone's width. */
export const Phone: Story = { args: { threads: fixtureThreads(), width: 390 } };
/** In German. */
export const German: Story = { args: { threads: fixtureThreads(), locale: 'de', messages: de } };
/** In Arabic, right to left. */
export const Arabic: Story = { args: { threads: fixtureThreads(), locale: 'ar', dir: 'rtl', messages: ar } };
