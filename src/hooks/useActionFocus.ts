import { useEffect, useMemo, useRef } from 'react';
import { useOptionalChatSurface } from './context';

/** Rows that already took focus once, per thread store: a row scrolled back into view never steals it again. */
const focusedOnce = new WeakMap<object, Set<string>>();

export interface ActionFocus<T extends HTMLElement> {
  /** Put on the row's root element. */
  ref: React.RefObject<T | null>;
  /** Call before acting on the row from one of its buttons: once it resolves, focus goes back to the message box. */
  willResolve(): void;
}

/**
 * Focus for a row that asks the user to act (a proposal, an approval, a question).
 * When it first appears pending and the user is not typing something, the row
 * itself takes focus (give it `tabIndex={-1}`): a screen reader reads it and
 * Tab reaches its buttons, while a stray Enter or Space cannot approve
 * anything. Once it is resolved from one of its own buttons, focus returns to
 * the message box, so the keyboard never lands on nothing.
 * @example
 * const focus = useActionFocus<HTMLElement>(row.id, row.status === 'pending');
 * <article ref={focus.ref} tabIndex={-1}>…<button onClick={() => { focus.willResolve(); decide(…); }}>Approve</button></article>
 */
export function useActionFocus<T extends HTMLElement>(id: string, pending: boolean): ActionFocus<T> {
  const surface = useOptionalChatSurface();
  const ref = useRef<T | null>(null);
  const returnFocus = useRef(false);
  const key = surface?.store;

  useEffect(() => {
    const el = ref.current;
    if (!el || !pending || !key) return;
    let seen = focusedOnce.get(key);
    if (!seen) focusedOnce.set(key, (seen = new Set()));
    if (seen.has(id)) return;
    seen.add(id);
    if (isIdle(el)) el.focus({ preventScroll: true });
  }, [id, pending, key]);

  useEffect(() => {
    if (pending || !returnFocus.current) return;
    returnFocus.current = false;
    const el = ref.current;
    const input = el?.closest('[data-chat-surface]')?.querySelector<HTMLElement>('[data-part="composer-input"]');
    (input ?? el)?.focus({ preventScroll: true });
  }, [pending]);

  return useMemo(
    () => ({
      ref,
      willResolve() {
        returnFocus.current = true;
      },
    }),
    [],
  );
}

/** True when moving focus would not interrupt: nothing is focused, or the focus is in this surface and no draft is being typed. */
function isIdle(el: HTMLElement): boolean {
  const active = el.ownerDocument.activeElement;
  if (!active || active === el.ownerDocument.body) return true;
  const surface = el.closest('[data-chat-surface]');
  if (!surface?.contains(active)) return false;
  const typing = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== '';
  return !typing;
}
