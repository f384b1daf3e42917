import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useChatSurface } from '../../hooks/context';
import { useQueryClientLater } from '../chat-surface/SurfaceQueryClient';
import { nodeQueryOptions } from '../../hooks/nodeQuery';
import { SKILL_DISCOVERY_QUERY } from '../../runtime/slash/skillDirectory';
import { useComposerSelection } from '../../hooks/useComposerSelection';
import { useSend } from '../../hooks/useActions';
import { dispatchSlash, splitSlash, type SlashOutcome } from '../../runtime/slash/dispatch';
import { SlashContext, type SlashContextValue, type SlashPanel } from './context';
import { whenQuiet } from '../../hooks/whenQuiet';
import { preloadSlashParts, skillDiscovery } from './deferredParts';
import type { Discovered } from './slashQueries';
import { namespaceQuery, nodeAt } from './findNode';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

export interface SlashRootProps {
  /** Called by Navigate skills with their target; without it the chat says it cannot go there. */
  onNavigate?: (target: string) => void;
  /** Called by NewThread skills (`/clear`); without it the chat says it cannot start one. */
  onNewThread?: () => void;
  /** A picker, panel or notice to show from the start (stories, a host restoring its UI). @default null */
  defaultPanel?: SlashPanel | null;
  children?: ReactNode;
}


/**
 * Discovers the user's slash skills and runs them: the composer hands it
 * every `/word …` it submits, and it opens a picker, a content panel or an
 * inline notice, sends a load-skill message, or calls the host. Without a
 * workspace `query` it is inert and the composer stays a plain message box.
 * @example
 * <ChatSurface.Root workspace={workspace}><Slash.Root onNavigate={go}>…<Composer.Root>…</Composer.Root></Slash.Root></ChatSurface.Root>
 */
export function SlashRoot({ onNavigate, onNewThread, defaultPanel = null, children }: SlashRootProps) {
  const { workspace, threadId, store } = useChatSurface();
  // React Query's client: the assembled surface makes its own only when it is first wanted (here).
  const { client, want } = useQueryClientLater();
  const send = useSend();
  const composer = useComposerSelection();
  const [discovery, setDiscovery] = useState<Discovered>(LOADING);
  const [discovering, setDiscovering] = useState(false);
  const [panel, setPanel] = useState<SlashPanel | null>(defaultPanel);
  const enabled = typeof workspace.query === 'function';
  const latest = useRef({ composer, onNavigate, onNewThread });
  const messages = useMessages();
  const m = messages.slash;
  latest.current = { composer, onNavigate, onNewThread };
  // The skills are discovered, and the combobox's list and React Query's code (chunks of their own,
  // see ./deferredParts and ../chat-surface/SurfaceQueryClient) fetched, once the user
  // steps into the message box (`prepare`, on its first focus) and the page is idle with no turn in
  // progress: not while the surface first renders, not for a page whose user never writes, and not
  // in the frames of a reply that streams (the picker and panel follow once the list is shown, see
  // `preloadSkillViews`). A `/` typed before that looks them up at once (`discover`).
  const prepared = useRef<(() => void) | null>(null);
  const prepare = useCallback(() => {
    if (!enabled || prepared.current) return;
    prepared.current = whenQuiet(store, () => {
      setDiscovering(true);
      want().catch(() => {});
      void preloadSlashParts().catch(() => {});
    });
  }, [enabled, store, want]);
  useEffect(() => () => prepared.current?.(), []);

  const act = useCallback(
    async (outcome: SlashOutcome, text: string): Promise<void> => {
      const notice = (tone: 'info' | 'error', message: string) => setPanel({ kind: 'notice', tone, text: message });
      switch (outcome.kind) {
        case 'none':
        case 'harness':
          return send(outcome.kind === 'none' ? text : outcome.text);
        case 'submit':
          return send(outcome.message.text, outcome.message.skill);
        case 'unknown':
          // Refused, not swallowed: the composer puts the typed text back and says why.
          throw new Error(outcome.message);
        case 'help':
          if (outcome.skills) {
            // `/help`: the skills this user can run, one line each.
            const lines = outcome.skills.map((s) => `${s.name}: ${s.description}`);
            return setPanel({ kind: 'notice', tone: 'info', text: lines.length ? lines.join('\n') : m.noSkills, skill: outcome.skill });
          }
          return setPanel({ kind: 'notice', tone: 'info', text: outcome.skill.description, skill: outcome.skill });
        case 'pick':
          return setPanel({ kind: 'pick', title: outcome.title, query: outcome.query, field: outcome.field, filter: outcome.filter });
        case 'open':
          return setPanel({ kind: 'content', path: outcome.contentPath, skill: outcome.skill.name });
        case 'navigate': {
          const navigate = latest.current.onNavigate;
          if (!navigate) return notice('error', m.noNavigation(outcome.skill.name, outcome.target));
          setPanel(null);
          return navigate(outcome.target);
        }
        case 'connect':
        case 'disconnect': {
          const call = outcome.kind === 'connect' ? workspace.connect : workspace.disconnect;
          const connect = outcome.kind === 'connect';
          if (!call) return notice('error', connect ? m.cannotConnect(outcome.provider) : m.cannotDisconnect(outcome.provider));
          try {
            await call.call(workspace, { threadId, provider: outcome.provider });
            return notice('info', connect ? m.connected(outcome.provider) : m.disconnected(outcome.provider));
          } catch (error) {
            return notice('error', connect ? m.connectFailed(outcome.provider, reasonOf(error, messages)) : m.disconnectFailed(outcome.provider, reasonOf(error, messages)));
          }
        }
        case 'connectors':
          if (!workspace.connectors) return notice('error', messages.connectors.notTaken(outcome.skill.name));
          return setPanel({ kind: 'connectors', skill: outcome.skill.name });
        case 'new-thread': {
          const start = latest.current.onNewThread;
          if (!start) return notice('error', m.singleThread(outcome.skill.name));
          setPanel(null);
          return start();
        }
        default:
          return outcome satisfies never;
      }
    },
    [send, workspace, threadId, m, messages.connectors],
  );

  const run = useCallback(
    (text: string): Promise<void> | null => {
      if (!enabled || !splitSlash(text)) return null;
      return (async () => {
        let skills;
        try {
          const client = await want();
          skills = await client.fetchQuery(nodeQueryOptions(workspace, threadId, SKILL_DISCOVERY_QUERY));
        } catch (error) {
          throw new Error(`the slash skills could not be loaded (${reasonOf(error, messages)})`);
        }
        const harnessPath = latest.current.composer.harness;
        const harnessQuery = harnessPath ? namespaceQuery(harnessPath, 'Harness') : null;
        const harnesses = harnessQuery ? await want().then((client) => client.fetchQuery(nodeQueryOptions(workspace, threadId, harnessQuery))).catch(() => []) : [];
        const harness = harnessPath ? nodeAt(harnesses, harnessPath) : undefined;
        await act(dispatchSlash(text, { skills, harness }), text);
      })();
    },
    [enabled, want, workspace, threadId, act],
  );

  const closePanel = useCallback(() => setPanel(null), []);
  const discover = useCallback(() => {
    setDiscovering(true);
    want().catch(() => {});
  }, [want]);
  const value = useMemo<SlashContextValue>(
    () => ({
      enabled,
      skills: discovery.data ?? [],
      status: discovery.isError ? 'error' : discovery.data ? 'ready' : 'loading',
      discover,
      prepare,
      error: discovery.error ? m.notLoaded(discovery.error.message) : null,
      run,
      panel,
      closePanel,
    }),
    [enabled, discovery.data, discovery.isError, discovery.error, discover, prepare, run, panel, closePanel],
  );
  return (
    <SlashContext.Provider value={value}>
      {discovering && client ? <skillDiscovery.Part onChange={setDiscovery} /> : null}
      {children}
    </SlashContext.Provider>
  );
}
SlashRoot.displayName = 'Slash.Root';

const LOADING: Discovered = { data: undefined, isError: false, error: null };
