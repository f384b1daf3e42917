import type { AbstractAgent } from '@ag-ui/client';
import type { ResumeEntry, Tool } from '@ag-ui/core';
import type { CapabilityDescriptor } from '../runtime/capability';
import { publishedSchema } from '../runtime/doors/mcpTools';
import type { CapabilityResult } from '../runtime/envelope';
import type { DriverInfo, ThreadEvent } from '../runtime/events';
import { createId } from '../runtime/ids';
import { invoke } from '../runtime/invoke';
import { createRegistry } from '../runtime/registry';
import { loadSkillText } from '../runtime/skillField';
import { answerInterrupt } from './agUiInterrupts';
import { loadAgUi, type AgUiModules } from './agUiPeer';
import type { AgUiHostEvent } from './agUiRound';
import { newAgUiThread, type AgUiThread } from './agUiThread';
import { runAgUiTurn, type TurnSettings } from './agUiTurn';
import type { DecisionRequest, WorkspaceAdapter } from './types';

export interface AgUiWorkspaceOptions {
  /** The agent's AG-UI endpoint (an `HttpAgent` is made per thread). */
  url?: string;
  /** Headers for `url` (e.g. an Authorization header). */
  headers?: Record<string, string>;
  /** Or an agent of your own (any `AbstractAgent`): one per thread, made by the function or cloned from the instance. */
  agent?: AbstractAgent | ((threadId: string) => AbstractAgent);
  /** The page's own capabilities: offered to the agent as frontend tools and run in the page when it calls them. */
  capabilities?: readonly CapabilityDescriptor[];
  /** Shown as the model badge. @default { id: 'ag-ui', label: 'AG-UI agent' } */
  driver?: DriverInfo;
  /** Hears the agent's shared state after each snapshot or delta. */
  onState?: (threadId: string, state: unknown) => void;
  /**
   * Hears the agent's events that are not conversation, as they arrive: `CUSTOM` (an
   * application's own events), `RAW` (a provider's events passed through) and activity
   * (`ACTIVITY_SNAPSHOT` / `ACTIVITY_DELTA`). Without it they are ignored (a `CUSTOM`
   * `chatsurface.progress` from the kit's own AG-UI endpoint still shows on its tool card).
   * What it throws is logged and the run goes on.
   * @example
   * onEvent: (threadId, event) => { if (event.type === 'CUSTOM' && event.name === 'deploy.log') appendLog(event.value); }
   */
  onEvent?: (threadId: string, event: AgUiHostEvent) => void;
  /** Frontend-tool rounds one turn may take before it stops. @default 8 */
  maxRounds?: number;
}

/**
 * A `WorkspaceAdapter` that runs `<ChatSurface>` on any AG-UI agent (LangGraph,
 * Mastra, CrewAI, Pydantic AI behind AG-UI, or your own), through the
 * official `@ag-ui/client`: text messages stream into assistant rows; tool
 * calls become invocation cards (arguments streamed into the card's output,
 * then the result); steps show in the cast row while they run; a run that
 * ends on interrupts waits on approval rows (an interrupt tied to a tool
 * call) or question rows (any other), and the answer resumes the run; state
 * snapshots and deltas reach `onState`; a messages snapshot adds the rows not
 * shown yet; custom, raw and activity events reach `onEvent`. The page's `capabilities` are
 * offered to the agent as frontend tools: when it calls one, it runs in the
 * page (validated like any call) and the run goes on with its result.
 * @example
 * const workspace = createAgUiWorkspace({ url: 'https://agents.example.com/awp', capabilities: [addNote] });
 * <ChatSurface workspace={workspace} />
 */
export function createAgUiWorkspace(options: AgUiWorkspaceOptions): WorkspaceAdapter {
  if (!options.url === !options.agent) throw new TypeError('createAgUiWorkspace: give either url or agent.');
  const registry = createRegistry([...(options.capabilities ?? [])]);
  const driver = options.driver ?? { id: 'ag-ui', label: 'AG-UI agent' };
  const tools: Tool[] = registry.describe().map((info) => ({ name: info.name, description: info.description, parameters: publishedSchema(info.inputSchema) }));
  const settings: TurnSettings = { registry, tools, driver, maxRounds: options.maxRounds ?? 8, ...(options.onState ? { onState: options.onState } : {}), ...(options.onEvent ? { onEvent: options.onEvent } : {}) };
  const threads = new Map<string, AgUiThread>();
  let agents = 0;

  const makeAgent = (threadId: string, HttpAgent: AgUiModules['HttpAgent']): AbstractAgent => {
    if (options.url) return new HttpAgent({ url: options.url, threadId, ...(options.headers ? { headers: options.headers } : {}) });
    const given = options.agent!;
    if (typeof given === 'function') return given(threadId);
    const agent = agents++ === 0 ? given : (given.clone() as AbstractAgent);
    agent.threadId = threadId;
    return agent;
  };
  const thread = (threadId: string): AgUiThread => {
    let found = threads.get(threadId);
    if (!found) {
      found = newAgUiThread();
      threads.set(threadId, found);
    }
    return found;
  };
  /** The thread's agent, made once `@ag-ui/client` is loaded (a missing peer rejects with `MissingPeerError`). */
  const agentOf = async (t: AgUiThread, threadId: string): Promise<AbstractAgent> => {
    const { HttpAgent } = await loadAgUi();
    return (t.agent ??= makeAgent(threadId, HttpAgent));
  };
  /** One run of the agent (and the frontend-tool rounds it leads to), as one turn. */
  const runTurn = async (threadId: string, resume?: ResumeEntry[]) => {
    const t = thread(threadId);
    const agent = await agentOf(t, threadId);
    const { EventType } = await loadAgUi();
    await runAgUiTurn(settings, t, threadId, agent, EventType, resume);
  };

  return {
    manifest: { capabilities: registry.describe(), driver, alignment: 'strict', anticipation: {} },
    async send({ threadId, text, skill }) {
      const t = thread(threadId);
      const id = createId('msg');
      t.seen.add(id);
      t.log.emit({ type: 'message.created', message_id: id, role: 'user', text, ...(skill !== undefined ? { skill } : {}) });
      // The agent gets what it got before the field: a skill's message as the directive, then the task.
      (await agentOf(t, threadId)).messages.push({ id, role: 'user', content: skill !== undefined ? loadSkillText(skill, text) : text });
      await runTurn(threadId);
    },
    invoke: ({ threadId, capability, args }): Promise<CapabilityResult> => invoke(capability, args, { registry, emit: thread(threadId).log.emit, threadKey: threadId }),
    cancel({ threadId }) {
      threads.get(threadId)?.running?.abort();
    },
    async decide(request: DecisionRequest) {
      const entry = answerInterrupt(thread(request.threadId), request);
      if (entry) await runTurn(request.threadId, [entry]);
    },
    setView({ threadId, view }) {
      thread(threadId).log.emit({ type: 'view.changed', view });
    },
    subscribe(threadId, listener: (event: ThreadEvent) => void, subscribeOptions) {
      return thread(threadId).log.subscribe(listener, subscribeOptions?.since ?? 0);
    },
  };
}
