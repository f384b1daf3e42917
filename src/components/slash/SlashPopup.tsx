import { createContext, memo, useCallback, useContext, useEffect, useId, useLayoutEffect, useReducer, useRef, type CSSProperties, type ReactElement, type RefObject } from 'react';
import type { CatalogNode } from '../../runtime/catalogNodes';
import { useAnchoredPopup } from './anchoredPopup';
import { preloadSkillViews } from './deferredViews';
import { SlashCount } from './SlashCount';
import { OPTION_HEIGHT, SlashOption } from './SlashOption';
import { optionId, PAGE_OPTIONS, type SlashComboboxState } from './useSlashCombobox';
import { useMessages } from '../messages/context';

/** Lists longer than this keep only the options near the viewport in the DOM. */
export const VIRTUALIZE_OVER = 50;

export interface SlashPopupProps {
  state: SlashComboboxState;
  /** The combobox element the popup is placed against (above it, aligned to its start). */
  anchor: RefObject<HTMLElement | null>;
}

/**
 * The slash popup: placed against the combobox (above it, or below where
 * there is more room; see `useAnchoredPopup`), holding a listbox of the
 * skills that match (virtualised over 50), or a loading, empty or error
 * message. A press or focus outside it and the message box, or Escape,
 * closes it. Its code is loaded apart from the page's first script (see
 * `Slash.Combobox`). Once it is shown, the picker and panel that its skills
 * open are fetched too.
 */
export function SlashPopup({ state, anchor }: SlashPopupProps) {
  const latest = useRef(state);
  useLayoutEffect(() => {
    latest.current = state;
  });
  const dismiss = useCallback(() => latest.current.dismiss(), []);
  // Its skills open the picker and the panel: fetch their code now that the list is shown.
  useEffect(() => void preloadSkillViews().catch(() => {}), []);
  // The popup's frame renders once; a keystroke re-renders only the body, which reads the
  // combobox's state from context.
  return (
    <PopupState.Provider value={state}>
      <PopupShell anchor={anchor} dismiss={dismiss} />
    </PopupState.Provider>
  );
}
SlashPopup.displayName = 'Slash.Popup';

const PopupState = createContext<SlashComboboxState | null>(null);

const PopupShell = memo(function PopupShell({ anchor, dismiss }: { anchor: SlashPopupProps['anchor']; dismiss: () => void }) {
  const popup = useRef<HTMLDivElement>(null);
  useAnchoredPopup(anchor, popup, dismiss);
  const m = useMessages().slash;
  return (
    <div ref={popup} role="group" aria-label={m.label} data-part="slash-popup" data-state="open" data-side="top" style={{ position: 'fixed', left: 0, top: 0 }}>
      {/* The popup keeps the height of a full list, so a filter that changes the number of
          options never moves or resizes it (no new placement, no second commit); the panel
          inside, at the edge beside the message box, is what shows. */}
      <div data-part="slash-panel">
        <PopupBody />
      </div>
    </div>
  );
});

/** What the popup shows: the error, "Loading skills…", "No skill matches", or the listbox. */
function PopupBody() {
  const state = useContext(PopupState)!;
  const { items, status, error, filter } = state;
  const m = useMessages().slash;
  if (status === 'error')
    return (
      <p role="alert" data-part="slash-error">
        {error}
      </p>
    );
  if (status === 'loading' && items.length === 0)
    return (
      <p role="status" data-part="slash-loading">
        {m.loading}
      </p>
    );
  if (items.length === 0)
    return (
      <p role="status" data-part="slash-empty">
        {m.noMatch(filter)}
      </p>
    );
  return (
    <>
      <SlashList items={items} highlight={state.highlight} setActive={state.setActive} choose={state.choose} setListId={state.setListId} />
      <SlashCount count={items.length} />
    </>
  );
}

type SlashListProps = Pick<SlashComboboxState, 'items' | 'highlight' | 'setActive' | 'choose' | 'setListId'>;
type Range = readonly [first: number, last: number];

/** Options rendered beyond each edge of the view when a list is shown or filtered (a filter key updates these). */
const OVERSCAN = 1;
/** Options rendered ahead, on the side the view moved to, once it leaves the rendered ones: the next keys then change no option. */
const AHEAD = PAGE_OPTIONS;

/** The first and last option in view when the list is scrolled to `top` and shows `height` px. */
function viewAt(top: number, height: number, count: number): Range {
  const first = Math.min(count - 1, Math.max(0, Math.floor(top / OPTION_HEIGHT)));
  return [first, Math.min(count - 1, Math.max(first, Math.ceil((top + height) / OPTION_HEIGHT) - 1))];
}
/**
 * The options to render for `view`: those rendered before (`shown`, same
 * items) while they still cover it; otherwise the view with OVERSCAN on each
 * side and AHEAD on the side it moved to.
 */
function rangeFor(view: Range, count: number, shown: Range | null): Range {
  if (shown && shown[0] <= view[0] && shown[1] >= view[1]) return shown;
  const down = shown !== null && view[1] > shown[1];
  const up = shown !== null && view[0] < shown[0];
  return [Math.max(0, view[0] - (up ? AHEAD : OVERSCAN)), Math.min(count - 1, view[1] + (down ? AHEAD : OVERSCAN))];
}
/** Where the list must be scrolled, from `top`, for option `index` to be in view. */
function scrollFor(index: number, top: number, height: number): number {
  const start = index * OPTION_HEIGHT;
  if (start < top) return start;
  if (start + OPTION_HEIGHT > top + height) return Math.max(0, start + OPTION_HEIGHT - height);
  return top;
}

/**
 * The options. One element tree whether virtualised or not, so crossing 50
 * matches moves options instead of remounting them. Every option is
 * OPTION_HEIGHT tall, so where the list is scrolled says which options are in
 * view: a highlight that moves out of view decides the new scroll position
 * while rendering, renders the options there and scrolls in the same commit
 * (one commit per key, no layout read); the scroll event that follows finds
 * those options already shown. The rendered options stay while they cover
 * the view, and a highlight or scroll that leaves them renders a page ahead,
 * so most keys only move the highlight between two options. Scrolling by
 * hand renders the options it brings into view.
 */
const SlashList = memo(function SlashList({ items, highlight, setActive, choose, setListId }: SlashListProps) {
  // The list renders when the items change or the view leaves the options rendered; a move of the
  // highlight inside them writes four attributes and renders nothing (see `lightUp`).
  const active = highlight.at(items);
  const scroller = useRef<HTMLDivElement | null>(null);
  const spacer = useRef<HTMLDivElement | null>(null);
  const bar = useRef<HTMLDivElement | null>(null);
  const listId = useId();
  const virtual = items.length > VIRTUALIZE_OVER;
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const listRef = useCallback(
    (el: HTMLDivElement | null) => {
      scroller.current = el;
      setListId(el?.id);
    },
    [setListId],
  );
  const run = useCallback((node: CatalogNode) => choose(node, 'run'), [choose]);

  // Where the list is scrolled and how tall it is, kept as they change (a scroll listener, a
  // ResizeObserver), so that moving the highlight reads no layout. Until the observer reports,
  // the height is the stylesheet's: up to six options.
  const scrollTop = useRef(0);
  const viewHeight = useRef<number | null>(null);
  const height = viewHeight.current ?? Math.min(items.length, PAGE_OPTIONS) * OPTION_HEIGHT;
  const shown = useRef<{ items: readonly CatalogNode[]; active: number; range: Range } | null>(null);
  const before = shown.current;
  const moved = before === null || before.items !== items || before.active !== active;
  const top = moved ? scrollFor(active, scrollTop.current, height) : scrollTop.current;
  const range: Range = virtual ? rangeFor(viewAt(top, height, items.length), items.length, before?.items === items ? before.range : null) : [0, items.length - 1];

  useLayoutEffect(() => {
    shown.current = { items, active, range };
    lightUp(spacer.current, range[0], active);
    place(bar.current, active);
    const el = scroller.current;
    if (el && top !== scrollTop.current) el.scrollTop = top;
    scrollTop.current = top;
  });
  // The highlight moved (a key, the mouse). When the options rendered cover the view it needs,
  // scroll there at once (the layout is clean, so the write costs no layout) and mark the two
  // options; otherwise render the options there, which marks them and scrolls in that commit.
  useLayoutEffect(
    () =>
      highlight.subscribe(() => {
        const now = shown.current;
        if (!now || now.items !== items) return;
        const next = highlight.at(items);
        if (next === now.active) return;
        const shownHeight = viewHeight.current ?? Math.min(items.length, PAGE_OPTIONS) * OPTION_HEIGHT;
        const to = scrollFor(next, scrollTop.current, shownHeight);
        const [first, last] = viewAt(to, shownHeight, items.length);
        if (items.length > VIRTUALIZE_OVER && (first < now.range[0] || last > now.range[1])) return rerender();
        shown.current = { ...now, active: next };
        // Scroll first: writing scrollTop brings style and layout up to date, which costs nothing
        // while the page is as the last frame left it, and after the options' change would restyle
        // them here, ahead of the frame's own style pass.
        const el = scroller.current;
        if (el && to !== scrollTop.current) el.scrollTop = to;
        scrollTop.current = to;
        mark(spacer.current?.children[now.active - now.range[0]], false);
        mark(spacer.current?.children[next - now.range[0]], true);
        place(bar.current, next);
      }),
    [highlight, items],
  );
  /** Renders again when the view leaves the options shown (a scroll by hand, a resize). */
  const follow = useCallback(() => {
    const now = shown.current;
    if (!now || now.items.length <= VIRTUALIZE_OVER) return;
    const [first, last] = viewAt(scrollTop.current, viewHeight.current ?? PAGE_OPTIONS * OPTION_HEIGHT, now.items.length);
    if (first < now.range[0] || last > now.range[1]) rerender();
  }, []);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    // A plain passive listener: the scroll a key causes needs no React event.
    const onScroll = () => {
      scrollTop.current = el.scrollTop;
      follow();
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    const observer =
      typeof ResizeObserver === 'function'
        ? new ResizeObserver((entries) => {
            const box = entries[entries.length - 1]?.contentRect;
            if (box) viewHeight.current = box.height;
            follow();
          })
        : null;
    observer?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      observer?.disconnect();
    };
  }, [follow]);

  const options: ReactElement[] = [];
  for (let index = range[0]; index <= range[1]; index++) {
    options.push(
      <SlashOption
        // Keyed by place: a new filter updates the options in place rather than replacing them.
        key={index}
        id={optionId(listId, index)}
        node={items[index]!}
        index={index}
        count={items.length}
        onChoose={run}
        onHover={setActive}
      />,
    );
  }
  // The options sit in an absolutely placed spacer (the list's own height comes from the row
  // count, in CSS), so a keystroke changes no box outside the options. They flow inside it from
  // the first one rendered (its padding holds the options above): no option is a layer of its own,
  // so a frame that moves the highlight has one moved box to composite, not one per option.
  return (
    <div
      ref={listRef}
      id={listId}
      role="listbox"
      aria-label={useMessages().slash.label}
      data-part="slash-list"
      data-virtual={virtual || undefined}
      style={{ '--cs-slash-rows': Math.min(items.length, 100) } as CSSProperties}
    >
      <div ref={bar} data-part="slash-highlight" aria-hidden="true" />
      <div ref={spacer} data-part="slash-spacer" style={{ height: items.length * OPTION_HEIGHT, paddingTop: range[0] * OPTION_HEIGHT }}>
        {options}
      </div>
    </div>
  );
});

/**
 * Marks the highlighted option among those rendered (`aria-selected`,
 * `data-state`): the options leave both to the list, so a move of the
 * highlight is attribute writes on two elements and the band's transform,
 * not a render.
 * `children[i]` is option `first + i`.
 */
function lightUp(spacer: HTMLElement | null, first: number, active: number) {
  if (!spacer) return;
  for (let i = 0; i < spacer.children.length; i++) mark(spacer.children[i], first + i === active);
}
/**
 * Moves the highlight's band (`slash-highlight`, drawn under the options) to
 * option `index`: one transform, so a key changes no option's look and lays
 * out nothing.
 */
function place(bar: HTMLElement | null, index: number) {
  const transform = `translateY(${index * OPTION_HEIGHT}px)`;
  if (bar && bar.style.transform !== transform) bar.style.transform = transform;
}
function mark(option: Element | null | undefined, on: boolean) {
  if (!option || option.getAttribute('aria-selected') === String(on)) return;
  option.setAttribute('aria-selected', String(on));
  option.setAttribute('data-state', on ? 'active' : 'inactive');
}
