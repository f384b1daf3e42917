import { memo, useCallback, useId, useLayoutEffect, useRef, type CSSProperties } from 'react';
import type { CatalogNode } from '../../runtime/slash/nodes';

export interface SlashOptionProps {
  node: CatalogNode;
  index: number;
  /** How many options the filter left (for `aria-setsize` when the list is virtualised). */
  count: number;
  active: boolean;
  onChoose(node: CatalogNode): void;
  onHover(index: number): void;
  /** Reports the option's DOM id while it is highlighted (for `aria-activedescendant`). */
  onActiveId?: ((id: string | undefined) => void) | undefined;
  style?: CSSProperties | undefined;
}

/**
 * One skill in the slash list: its slash word and description. The
 * accessible name is the word and the description.
 * @example
 * <SlashOption node={skill} index={0} count={6} active onChoose={run} onHover={setActive} />
 */
export const SlashOption = memo(function SlashOption({ node, index, count, active, onChoose, onHover, onActiveId, style }: SlashOptionProps) {
  // A stable ref (an inline one is detached and attached again on every render), and the id
  // reported once when the option becomes the highlighted one (the key handler usually has).
  const id = useId();
  const element = useRef<HTMLDivElement | null>(null);
  const ref = useCallback((el: HTMLDivElement | null) => {
    element.current = el;
  }, []);
  useLayoutEffect(() => {
    if (active && element.current) onActiveId?.(element.current.id);
  }, [active, onActiveId]);
  // A plain option of the list (the message box is the combobox and handles the keys): no
  // listbox library, so moving the highlight re-renders the two options it concerns, nothing else.
  return (
    <div
      ref={ref}
      id={id}
      role="option"
      aria-selected={active}
      onClick={() => onChoose(node)}
      onMouseMove={active ? undefined : () => onHover(index)}
      aria-setsize={count}
      aria-posinset={index + 1}
      data-part="slash-option"
      data-state={active ? 'active' : 'inactive'}
      style={style}
    >
      <span data-part="slash-option-name">{node.name}</span>
      <span data-part="slash-option-description">{node.description}</span>
    </div>
  );
});
SlashOption.displayName = 'Slash.Option';
