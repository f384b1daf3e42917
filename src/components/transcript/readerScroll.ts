/**
 * Whether a move up of the log is the reader's own. While the transcript follows the end, the view
 * also moves up without them: when the rows at the end shrink (a decision's buttons go, a reply's
 * placeholder is replaced) or the log's box grows (the chips or the cast row leave), the browser
 * pulls the scroll position back to the new end, and rows that come in before the move is read make
 * it look like a step away from the end. Only the reader leaves the end: a move up counts when it
 * follows their scroll input on the log (the wheel, a touch, a scrolling key, the scrollbar), when
 * nothing resized just before it (a host's or a test's `scrollTo`), or when it is too long for a
 * pull-back (more than a screenful).
 */

/** How long (ms) after the reader's scroll input a move up is still theirs (a smooth scroll by key or wheel lasts a few hundred ms). */
export const READER_INPUT_MS = 1_000;

/** Keys that scroll a focused log up. */
const UP_KEYS = new Set(['ArrowUp', 'PageUp', 'Home']);

export interface ReaderInput {
  /** True while the reader's scroll input is recent (or a pointer is down on the log). */
  recent(): boolean;
  stop(): void;
}

/** Watches `log` for the reader's own scroll input. */
export function watchReaderInput(log: HTMLElement, now: () => number = () => performance.now()): ReaderInput {
  let at = -Infinity;
  let pointerDown = false;
  const note = () => {
    at = now();
  };
  const onWheel = (event: WheelEvent) => {
    if (event.deltaY < 0) note();
  };
  const onKey = (event: KeyboardEvent) => {
    const target = event.target as HTMLElement | null;
    if (target?.closest?.('input, textarea, select, [contenteditable="true"]')) return;
    if (UP_KEYS.has(event.key) || (event.key === ' ' && event.shiftKey)) note();
  };
  // On the log itself, not a row: its scrollbar.
  const onPointerDown = (event: PointerEvent) => {
    if (event.target !== log) return;
    pointerDown = true;
    note();
  };
  const onPointerUp = () => {
    if (!pointerDown) return;
    pointerDown = false;
    note();
  };
  const view = log.ownerDocument.defaultView;
  log.addEventListener('wheel', onWheel, { passive: true });
  log.addEventListener('touchmove', note, { passive: true });
  log.addEventListener('keydown', onKey);
  log.addEventListener('pointerdown', onPointerDown);
  view?.addEventListener('pointerup', onPointerUp);
  view?.addEventListener('pointercancel', onPointerUp);
  return {
    recent: () => pointerDown || now() - at <= READER_INPUT_MS,
    stop() {
      log.removeEventListener('wheel', onWheel);
      log.removeEventListener('touchmove', note);
      log.removeEventListener('keydown', onKey);
      log.removeEventListener('pointerdown', onPointerDown);
      view?.removeEventListener('pointerup', onPointerUp);
      view?.removeEventListener('pointercancel', onPointerUp);
    },
  };
}

/**
 * How long (ms) a short move up just after a resize is held, neither followed back nor taken as
 * leaving, for the reader's input to come: a wheel scrolls off the main thread, and its event may
 * come after the scroll it made.
 */
export const READER_GRACE_MS = 120;

/** How long (ms) after the rows or the log resized a move up may be the browser pulling the view back to a shrunk end. */
export const RESIZE_PULL_MS = 250;

/**
 * Whether a move up by `up` px, in a log `viewport` px tall, leaves the end: the reader's input
 * came with it, or it is longer than a screenful, or nothing resized just before it (`resized`:
 * the rows or the log did, so the browser may have pulled the view back; a script's scroll then
 * leaves the end as the reader's does).
 */
export function readerLeft(up: number, viewport: number, input: boolean, resized = true): boolean {
  return up > 0 && (input || up > viewport || !resized);
}
