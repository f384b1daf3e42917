import { useVirtualizer } from '@tanstack/react-virtual';
import { Command } from 'cmdk';
import { Popover } from 'radix-ui';
import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import type { CatalogNode } from '../../runtime/slash/nodes';
import { SlashOption } from './SlashOption';
import type { SlashComboboxState } from './useSlashCombobox';

/** Lists longer than this keep only the options near the viewport in the DOM. */
export const VIRTUALIZE_OVER = 50;
/** Height of one option in px; every option is one line of name and one of description. */
const OPTION_HEIGHT = 48;

export interface SlashComboboxProps {
  state: SlashComboboxState;
  /** The message box; it keeps the focus while the list is open. */
  children: ReactNode;
}

/**
 * The slash popup anchored to the message box: a radix popover holding a
 * cmdk listbox of the skills that match (filtered by the composer, virtualised
 * over 50). The message box keeps the focus and points at the highlighted
 * option with `aria-activedescendant`; the wrapper is the combobox.
 * `data-state` is open|closed.
 * @example
 * <SlashCombobox state={combobox}><textarea … /></SlashCombobox>
 */
export function SlashCombobox({ state, children }: SlashComboboxProps) {
  const anchor = useRef<HTMLDivElement>(null);
  const { open, items, status, error } = state;
  const showList = open && items.length > 0;
  return (
    <Popover.Root open={open}>
      <Popover.Anchor asChild>
        <div
          ref={anchor}
          role="combobox"
          aria-label="Slash skills"
          aria-haspopup="listbox"
          aria-expanded={showList}
          aria-controls={showList ? state.listId : undefined}
          data-part="slash-combobox"
          data-state={open ? 'open' : 'closed'}
        >
          {children}
        </div>
      </Popover.Anchor>
      <Popover.Content
        side="top"
        align="start"
        sideOffset={6}
        role="group"
        aria-label="Slash skills"
        data-part="slash-popup"
        onOpenAutoFocus={(event) => event.preventDefault()}
        onCloseAutoFocus={(event) => event.preventDefault()}
        onEscapeKeyDown={(event) => {
          // Radix sees Escape first (document, capture phase): close the list here, so the
          // message box does not also stop a running turn.
          event.preventDefault();
          state.dismiss();
        }}
        onInteractOutside={(event) => {
          if (anchor.current?.contains(event.target as Node)) event.preventDefault();
          else state.dismiss();
        }}
      >
        {status === 'error' ? (
          <p role="alert" data-part="slash-error">
            {error}
          </p>
        ) : status === 'loading' && items.length === 0 ? (
          <p role="status" data-part="slash-loading">
            Loading skills…
          </p>
        ) : items.length === 0 ? (
          <p role="status" data-part="slash-empty">
            No skill matches “/{state.filter}”. Press Enter to send it anyway.
          </p>
        ) : (
          <Command shouldFilter={false} disablePointerSelection value={items[state.active]?.path ?? ''} label="Slash skills" data-part="slash-command">
            <SlashList state={state} />
          </Command>
        )}
      </Popover.Content>
    </Popover.Root>
  );
}
SlashCombobox.displayName = 'Slash.Combobox';

function SlashList({ state }: { state: SlashComboboxState }) {
  const { items, active, setActive, choose, setListId, setActiveId } = state;
  const scroller = useRef<HTMLDivElement | null>(null);
  const virtual = items.length > VIRTUALIZE_OVER;
  const virtualizer = useVirtualizer({
    count: virtual ? items.length : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => OPTION_HEIGHT,
    overscan: 6,
  });
  const listRef = useCallback(
    (el: HTMLDivElement | null) => {
      scroller.current = el;
      setListId(el?.id);
    },
    [setListId],
  );
  const run = useCallback((node: CatalogNode) => choose(node, 'run'), [choose]);

  useEffect(() => {
    if (virtual) virtualizer.scrollToIndex(active, { align: 'auto' });
    else scroller.current?.querySelector('[data-state="active"]')?.scrollIntoView({ block: 'nearest' });
  }, [active, virtual, virtualizer]);
  useEffect(() => () => setActiveId(undefined), [setActiveId]);

  const option = (node: CatalogNode, index: number, style?: React.CSSProperties) => (
    <SlashOption
      key={node.path}
      node={node}
      index={index}
      count={items.length}
      active={index === active}
      onChoose={run}
      onHover={setActive}
      onActiveId={setActiveId}
      style={style}
    />
  );
  return (
    <Command.List ref={listRef} label="Slash skills" data-part="slash-list" data-virtual={virtual || undefined}>
      {virtual ? (
        <div data-part="slash-spacer" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((row) =>
            option(items[row.index]!, row.index, { position: 'absolute', top: 0, left: 0, right: 0, height: OPTION_HEIGHT, transform: `translateY(${row.start}px)` }),
          )}
        </div>
      ) : (
        items.map((node, index) => option(node, index))
      )}
    </Command.List>
  );
}
