import { useRef, type ReactNode } from 'react';
import { slashPopup } from './deferredParts';
import type { SlashComboboxState } from './useSlashCombobox';
import { useMessages } from '../messages/context';

export interface SlashComboboxProps {
  state: SlashComboboxState;
  /** The message box; it keeps the focus while the list is open. */
  children: ReactNode;
}

/**
 * The slash combobox around the message box, and its popup while open: an
 * element placed against it holding a listbox of the skills that match (filtered
 * by the composer, virtualised over 50). The message box keeps the focus
 * and points at the highlighted option with `aria-activedescendant`; the
 * wrapper is the combobox. `data-state` is open|closed. The popup's code
 * is its own chunk, fetched when the browser is idle
 * after `<Slash.Root>` mounts, or on the first `/`.
 * @example
 * <SlashCombobox state={combobox}><textarea … /></SlashCombobox>
 */
export function SlashCombobox({ state, children }: SlashComboboxProps) {
  const anchor = useRef<HTMLDivElement>(null);
  // Expanded once the listbox is in the page (the popup reports its id), not while its code loads.
  const showList = state.open && state.items.length > 0 && state.listId !== undefined;
  const m = useMessages().slash;
  return (
    <>
      <div
        ref={anchor}
        role="combobox"
        aria-label={m.label}
        aria-haspopup="listbox"
        aria-expanded={showList}
        aria-controls={showList ? state.listId : undefined}
        data-part="slash-combobox"
        data-state={state.open ? 'open' : 'closed'}
      >
        {children}
      </div>
      {state.open ? <slashPopup.Part state={state} anchor={anchor} /> : null}
    </>
  );
}
SlashCombobox.displayName = 'Slash.Combobox';
