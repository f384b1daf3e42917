/**
 * jsdom lays nothing out: every element is 0 px tall, so a virtualised
 * transcript would render no rows. This gives the transcript a viewport and
 * each row slot a height, and makes `scrollTo` move `scrollTop` and fire
 * `scroll` (on a later task), as a browser does. For component tests only; Playwright checks
 * the real layout.
 */
export interface LayoutStub {
  /** Restores jsdom's own properties. */
  restore(): void;
}

export function stubTranscriptLayout({ viewport = 600, row = 60 }: { viewport?: number; row?: number } = {}): LayoutStub {
  const targets: [object, string][] = [
    [Element.prototype, 'clientHeight'],
    [Element.prototype, 'scrollHeight'],
    [HTMLElement.prototype, 'offsetHeight'],
    [Element.prototype, 'scrollTo'],
  ];
  const saved = targets.map(([target, key]) => [target, key, Object.getOwnPropertyDescriptor(target, key)] as const);

  const part = (el: Element) => el.getAttribute('data-part');
  Object.defineProperty(Element.prototype, 'clientHeight', {
    configurable: true,
    get(this: Element) {
      return part(this) === 'transcript' ? viewport : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'scrollHeight', {
    configurable: true,
    get(this: Element) {
      if (part(this) !== 'transcript') return 0;
      const rows = this.querySelector<HTMLElement>('[data-part="transcript-rows"]');
      const height = rows ? parseFloat(rows.style.height) || rows.children.length * row : 0;
      return Math.max(viewport, height);
    },
  });
  Object.defineProperty(HTMLElement.prototype, 'offsetHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return part(this) === 'transcript-slot' ? row : 0;
    },
  });
  Object.defineProperty(Element.prototype, 'scrollTo', {
    configurable: true,
    writable: true,
    value(this: Element, options?: ScrollToOptions | number, y?: number) {
      const top = typeof options === 'number' ? (y ?? 0) : (options?.top ?? this.scrollTop);
      const max = Math.max(0, this.scrollHeight - this.clientHeight);
      this.scrollTop = Math.max(0, Math.min(max, top));
      // Browsers fire scroll events on the next frame, never inside the call.
      setTimeout(() => this.dispatchEvent(new Event('scroll')), 0);
    },
  });

  return {
    restore() {
      for (const [target, key, descriptor] of saved) {
        if (descriptor) Object.defineProperty(target, key, descriptor);
        else Reflect.deleteProperty(target, key);
      }
    },
  };
}
