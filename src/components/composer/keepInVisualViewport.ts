/**
 * While the message box has the focus, keeps it inside the visual viewport: when an on-screen
 * keyboard opens (the visual viewport shrinks) or the page pans, the box is scrolled back into
 * view above the keyboard. Returns the function that stops watching (call it on blur).
 */
export function keepInVisualViewport(element: HTMLElement): () => void {
  const view = element.ownerDocument.defaultView;
  const viewport = view?.visualViewport;
  if (!view || !viewport) return () => {};
  let frame = 0;
  const check = () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      const rect = element.getBoundingClientRect();
      const bottom = viewport.offsetTop + viewport.height;
      if (rect.bottom > bottom || rect.top < viewport.offsetTop) element.scrollIntoView({ block: 'nearest' });
    });
  };
  viewport.addEventListener('resize', check);
  viewport.addEventListener('scroll', check);
  check();
  return () => {
    cancelAnimationFrame(frame);
    viewport.removeEventListener('resize', check);
    viewport.removeEventListener('scroll', check);
  };
}
