/**
 * A cancel that makes its `AbortSignal` only when something asks for it. Building an
 * `AbortController`'s signal (an `EventTarget`) and listening on it is a measurable part of a
 * short call's cost; most handlers never look at `ctx.signal`, and `invoke` only needs to hear
 * the abort. `signal` built after the abort is already aborted, with the same reason.
 * @example
 * const cancel = new Cancellation();
 * const off = cancel.onAbort(() => console.log('stopped', cancel.reason));
 * cancel.abort(new Error('Stopped by the user.'));
 */
export class Cancellation {
  #controller: AbortController | undefined;
  #listeners: (() => void)[] | undefined;
  #aborted = false;
  #reason: unknown = undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** An `AbortSignal` that aborts with this cancel (made on first use). */
  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** Aborts once: the signal (if made), then each listener. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listeners = this.#listeners;
    this.#listeners = undefined;
    if (listeners) for (const listener of listeners) listener();
  }

  /** Calls `listener` once when aborted (at once when it already is); the returned function unhooks it. */
  onAbort(listener: () => void): () => void {
    if (this.#aborted) {
      listener();
      return () => undefined;
    }
    const listeners = (this.#listeners ??= []);
    listeners.push(listener);
    return () => {
      const at = listeners.indexOf(listener);
      if (at >= 0) listeners.splice(at, 1);
    };
  }
}
