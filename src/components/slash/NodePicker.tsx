import { Command } from 'cmdk';
import { defaultMessages, type ChatSurfaceMessages } from '../messages/defaults';
import { Dialog } from 'radix-ui';
import { useMemo, useRef, useState } from 'react';
import { useChatSurface } from '../../hooks/context';
import { useNodeQuery } from '../../hooks/useNodeQuery';
import { useComposerSelection } from '../../hooks/useComposerSelection';
import { focusComposer, useSlash, type SlashPanel } from './context';
import { filterNodes } from './filterSkills';
import type { CatalogNode } from '../../runtime/catalogNodes';
import type { DriverInfo } from '../../runtime/events';
import { useMessages } from '../messages/context';
import { reasonOf } from '../messages/reason';

/**
 * Why a node cannot run on this workspace, or null when it can. A workspace that answers with
 * the offline model (in the page, or a server without an API key) runs no Claude model.
 */
export function unavailableReason(node: CatalogNode, driver: DriverInfo, words: Pick<ChatSurfaceMessages['picker'], 'unavailable'> = defaultMessages.picker): string | null {
  if (node.nodeType !== 'Model' || node.id === 'offline') return null;
  if (driver.id === 'offline') return words.unavailable;
  return null;
}

export interface NodePickerProps {
  /** The Pick action to show; usually the slash context's panel. */
  pick: Extract<SlashPanel, { kind: 'pick' }>;
}

/**
 * The picker a Pick skill opens (`/agent`, `/model`, `/harness`): the nodes
 * of the action's query in its order, the first one highlighted and the
 * filter pre-filled with what followed the slash word. Enter or a click
 * writes the node's path onto the composer field; Escape closes it. Focus
 * returns to the message box either way.
 * @example
 * <NodePicker pick={{ kind: 'pick', title: 'Choose an agent', query: 'namespace:Agent nodeType:Agent sort:order', field: 'agentName', filter: '' }} />
 */
export function NodePicker({ pick }: NodePickerProps) {
  const { workspace, threadId } = useChatSurface();
  const { closePanel } = useSlash('NodePicker');
  const current = useComposerSelection()[pick.field];
  const nodes = useNodeQuery(pick.query);
  const [filter, setFilter] = useState(pick.filter);
  const [failure, setFailure] = useState<string | null>(null);
  const driver = workspace.manifest.driver;
  const messages = useMessages();
  const m = messages.picker;
  // What can run first (the runnable default on top), then what cannot, each in the query's order.
  const items = useMemo(() => {
    const all = filterNodes(nodes.data ?? [], filter);
    return [...all.filter((n) => !unavailableReason(n, driver)), ...all.filter((n) => unavailableReason(n, driver))];
  }, [nodes.data, filter, driver]);
  const [chosen, setChosen] = useState<string | null>(null);
  const value = chosen !== null && items.some((n) => n.path === chosen) ? chosen : (items[0]?.path ?? '');
  const content = useRef<HTMLDivElement>(null);

  const choose = (path: string) => {
    const node = items.find((n) => n.path === path);
    const refused = node ? unavailableReason(node, driver, m) : null;
    if (node && refused) {
      // Never a silent swap: the selection stays as it was and the picker says why.
      setFailure(m.refused(node.name));
      return;
    }
    try {
      if (!workspace.setComposer) throw new Error('this workspace cannot change the thread’s selections');
      workspace.setComposer({ threadId, composer: { [pick.field]: path } });
      closePanel();
    } catch (error) {
      setFailure(m.notChanged(reasonOf(error, messages)));
    }
  };

  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : closePanel())}>
      <Dialog.Content
        ref={content}
        data-part="node-picker"
        data-state={nodes.isError ? 'error' : nodes.data ? 'ready' : 'loading'}
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusComposer(content.current);
        }}
      >
        <Dialog.Title data-part="node-picker-title">{pick.title}</Dialog.Title>
        <Command shouldFilter={false} value={value} onValueChange={setChosen} label={pick.title} loop>
          <Command.Input value={filter} onValueChange={setFilter} placeholder={m.filter} aria-label={m.filterLabel(pick.title)} data-part="node-picker-filter" />
          {nodes.isError ? (
            <p role="alert" data-part="node-picker-error">
              {m.notLoaded(nodes.error.message)}
            </p>
          ) : !nodes.data ? (
            <p role="status">{m.loading}</p>
          ) : items.length === 0 ? (
            <p role="status" data-part="node-picker-empty">
              {m.noMatch(filter)}
            </p>
          ) : null}
          <Command.List label={pick.title} data-part="node-picker-list">
            {items.map((node) => {
              const reason = unavailableReason(node, driver, m);
              const state = reason ? 'unavailable' : 'available';
              return (
                <Command.Item
                  key={node.path}
                  value={node.path}
                  onSelect={choose}
                  data-part="node-picker-option"
                  data-current={node.path === current || undefined}
                  data-state={state}
                >
                  <span data-part="node-picker-name" data-state={state}>
                    {node.name}
                  </span>
                  {node.path === current ? <span data-part="node-picker-current">{m.current}</span> : null}
                  {reason ? <span data-part="node-picker-unavailable">{m.unavailableMark}</span> : null}
                  <span data-part="node-picker-description">{reason ?? node.description}</span>
                </Command.Item>
              );
            })}
          </Command.List>
        </Command>
        {failure ? (
          <p role="alert" data-part="node-picker-failure">
            {failure}
          </p>
        ) : null}
        <Dialog.Close data-part="node-picker-close">{m.cancel}</Dialog.Close>
        {/* Last in tab order (the filter gets the focus first), drawn in the top corner. */}
        <Dialog.Close data-part="node-picker-x" aria-label={m.close}>
          <span aria-hidden="true">×</span>
        </Dialog.Close>
      </Dialog.Content>
    </Dialog.Root>
  );
}
NodePicker.displayName = 'Slash.NodePicker';
