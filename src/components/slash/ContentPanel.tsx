import { Dialog } from 'radix-ui';
import { useRef } from 'react';
import { useNodeQuery } from '../../hooks/useNodeQuery';
import { Markdown } from '../markdown/Markdown';
import { focusComposer, useSlash } from './context';
import { lastSegment, namespaceQuery, nodeAt } from './findNode';
import { useMessages } from '../messages/context';

export interface ContentPanelProps {
  /** The node whose content to show, e.g. `Skill/help`. */
  path: string;
  /** The skill that opened it, e.g. `/docs`. */
  skill: string;
}

/**
 * The panel an OpenContent skill opens: the node's name, description and
 * instructions. Escape or Close closes it and focus returns to the message box.
 * `data-state` is loading|ready|missing|error.
 * @example
 * <ContentPanel path="Skill/help" skill="/docs" />
 */
export function ContentPanel({ path, skill }: ContentPanelProps) {
  const { closePanel } = useSlash('ContentPanel');
  const query = namespaceQuery(path);
  const nodes = useNodeQuery(query ?? '', query !== null);
  const node = nodeAt(nodes.data, path);
  const content = useRef<HTMLDivElement>(null);
  const m = useMessages().panel;
  const state = query === null ? 'missing' : nodes.isError ? 'error' : !nodes.data ? 'loading' : node ? 'ready' : 'missing';
  return (
    <Dialog.Root open onOpenChange={(open) => (open ? undefined : closePanel())}>
      <Dialog.Content
        ref={content}
        data-part="content-panel"
        data-state={state}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          focusComposer(content.current);
        }}
      >
        <Dialog.Title data-part="content-panel-title">{node?.name ?? lastSegment(path)}</Dialog.Title>
        <Dialog.Description data-part="content-panel-description">
          {state === 'ready'
            ? node!.description
            : state === 'loading'
              ? m.loading
              : state === 'error'
                ? m.notLoaded(skill, path, nodes.error?.message ?? 'unknown error')
                : m.missing(skill, path)}
        </Dialog.Description>
        {node?.skill?.instructions ? (
          <div data-part="content-panel-body">
            <Markdown text={node.skill.instructions} />
          </div>
        ) : null}
        <Dialog.Close data-part="content-panel-close">{m.close}</Dialog.Close>
      </Dialog.Content>
    </Dialog.Root>
  );
}
ContentPanel.displayName = 'Slash.ContentPanel';
