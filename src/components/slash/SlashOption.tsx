import { memo } from 'react';
import type { CatalogNode } from '../../runtime/catalogNodes';

/** Height of one option in px; every option is one line of name and one of description. */
export const OPTION_HEIGHT = 48;

export interface SlashOptionProps {
  node: CatalogNode;
  /** Its DOM id (the message box's `aria-activedescendant` names it while it is highlighted). */
  id: string;
  index: number;
  /** How many options the filter left (for `aria-setsize` when the list is virtualised). */
  count: number;
  onChoose(node: CatalogNode): void;
  onHover(index: number): void;
}

/**
 * One skill in the slash list: its slash word and description. The
 * accessible name is the word and the description. Whether it is the
 * highlighted one (`aria-selected`, `data-state` active|inactive) is written
 * by the list, so moving the highlight renders no option.
 * @example
 * <SlashOption node={skill} id="list-option-0" index={0} count={6} onChoose={run} onHover={setActive} />
 */
export const SlashOption = memo(function SlashOption({ node, id, index, count, onChoose, onHover }: SlashOptionProps) {
  // A plain option of the list (the message box is the combobox and handles the keys): no
  // listbox library, no effect, no ref.
  return (
    <div
      id={id}
      role="option"
      onClick={() => onChoose(node)}
      onMouseMove={() => onHover(index)}
      aria-setsize={count}
      aria-posinset={index + 1}
      data-part="slash-option"
    >
      <span data-part="slash-option-name">{node.name}</span>
      <span data-part="slash-option-description">{node.description}</span>
    </div>
  );
});
SlashOption.displayName = 'Slash.Option';
