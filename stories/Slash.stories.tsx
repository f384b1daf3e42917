import type { Meta, StoryObj } from '@storybook/react-vite';
import { ChatSurface, Composer, EnsureQueryClient, Slash, createLocalWorkspace, type SlashPanel, type WorkspaceAdapter } from '../src';
import { catalogNode, createOfflineDriver } from '../src/runtime';
import { scriptedStory } from './scripted';

type Args = { workspace: WorkspaceAdapter; draft?: string; panel?: SlashPanel };

/** The surface's parts with a draft already typed (the slash list opens on a draft that starts with `/`). */
function SlashSurface({ workspace, draft = '', panel }: Args) {
  return (
    <div style={{ height: 560, paddingTop: 320 }}>
      <EnsureQueryClient>
        <ChatSurface.Root workspace={workspace} theme="light">
          <Slash.Root defaultPanel={panel ?? null}>
            <ChatSurface.Transcript />
            <Slash.Panels />
            <Slash.StatusRow />
            <Composer.Root defaultValue={draft}>
              <Composer.Input />
              <Composer.Send />
            </Composer.Root>
          </Slash.Root>
        </ChatSurface.Root>
      </EnsureQueryClient>
    </div>
  );
}

const meta = { title: 'Slash', render: (args) => <SlashSurface {...args} /> } satisfies Meta<Args>;
export default meta;
type Story = StoryObj<Args>;

const local = (options: Partial<Parameters<typeof createLocalWorkspace>[0]> = {}) =>
  createLocalWorkspace({ capabilities: [], driver: createOfflineDriver({ delayMs: 0 }), now: () => 1_700_000_000_000, ...options });

/** `/` typed: every discovered skill, in the discovery query's order, the first highlighted. */
export const ListOpen: Story = { args: { workspace: local(), draft: '/' } };

/** `/mo` typed: filtered by word, name, description and keywords. */
export const Filtered: Story = { args: { workspace: local(), draft: '/mo' } };

/** `/zebra` typed: nothing matches; Enter would send it and say the word is unknown. */
export const NoMatch: Story = { args: { workspace: local(), draft: '/zebra' } };

/** 5,000 skills of a space: the list is virtualised, only the options near the viewport are in the page. */
export const FiveThousandSkills: Story = {
  args: {
    workspace: local({
      space: 'acme',
      skills: Array.from({ length: 5_000 }, (_, i) =>
        catalogNode(`acme/Skill/team-${i}`, { nodeType: 'Skill', name: `/team-${i}`, description: `Team skill number ${i}`, order: 50, skill: { instructions: 'Do it.', autoMount: false, launchesSubThread: false } }),
      ),
    }),
    draft: '/',
  },
};

/** Discovery failed: the popup says why; the message box keeps working. */
export const DiscoveryFailed: Story = {
  args: {
    workspace: Object.assign(Object.create(local()) as WorkspaceAdapter, { query: () => Promise.reject(new Error('the catalog server did not answer')) }),
    draft: '/',
  },
};

/** `/agent` ran: the picker over the agents, the first highlighted. */
export const AgentPicker: Story = {
  args: { workspace: local(), panel: { kind: 'pick', title: 'Choose an agent', query: 'namespace:Agent nodeType:Agent sort:order', field: 'agentName', filter: '' } },
};

/** `/model claude` ran: the model picker with its filter pre-filled. */
export const ModelPickerFiltered: Story = {
  args: { workspace: local(), panel: { kind: 'pick', title: 'Choose a model', query: 'namespace:Model nodeType:Model sort:order', field: 'modelName', filter: 'haiku' } },
};

/** An OpenContent skill ran: the node's name, description and instructions in a panel. */
export const ContentPanel: Story = { args: { workspace: local(), panel: { kind: 'content', path: 'Skill/summarize', skill: '/docs' } } };

/** An unknown word: the notice says so and suggests near ones. */
export const UnknownWord: Story = {
  args: { workspace: local(), panel: { kind: 'notice', tone: 'error', text: 'There is no /sumx here. Did you mean /summarize? Type / to see every skill.' } },
};

/** The status row after `/agent` and `/model`: the picked nodes' names. */
export const StatusPicked: Story = {
  args: { workspace: local() },
  loaders: [
    async ({ args }) => {
      args.workspace.setComposer?.({ threadId: 'main', composer: { agentName: 'Agent/analyst', modelName: 'Model/offline', harness: 'Harness/chat' } });
      return {};
    },
  ],
};

/** `/summarize the records` sent: a "/summarize" chip and the task, then the answer. */
export const SkillChip: Story = {
  args: { workspace: local() },
  loaders: [
    async ({ args }) => {
      await args.workspace.send({ threadId: 'main', text: 'the records', skill: '/summarize' });
      return {};
    },
  ],
};

const offer = { type: 'skill.offered' as const, offer_id: 'offer_1', turn_id: 't1', sequence: ['records.import_csv', 'enrich.batch'], titles: ['Import CSV', 'Enrich records'], name: 'import-csv-then-enrich-records', description: 'Runs Import CSV, then Enrich records.', instructions: 'Run Import CSV, then Enrich records.' };

/** The assistant offers to save a repeated request as a skill: Save (with an optional new name) or Dismiss. */
export const SkillOffer: Story = { args: { workspace: scriptedStory([offer]) } };

/** A saved offer: the row says under which name. */
export const SkillOfferSaved: Story = {
  args: { workspace: scriptedStory([offer, { type: 'skill.saved', offer_id: 'offer_1', path: 'me/Skill/weekly', name: 'weekly' }]) },
};
