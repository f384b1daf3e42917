// The keystroke probe of bench/slash-keystroke.mjs, shared by the kit's page and the floor page.
// For every keydown it records two times, from the event's timeStamp:
//   - work: until React has handled the key and style and layout are done (the work a keystroke
//     costs the main thread before the browser may paint it);
//   - paint: until the first moment after the next paint (requestAnimationFrame, then a
//     MessageChannel task), which includes the wait for the next frame.
// window.__nextSample() resolves when the pending keystroke's paint sample is in. (An exported
// function, not a side-effect import: the package.json sideEffects list would drop that.)
export function installKeystrokeProbe() {
  const samples = [];
  const work = [];
  let waiting = null;
  window.__samples = samples;
  window.__work = work;
  window.__nextSample = () => new Promise((resolve) => (waiting = resolve));

  document.addEventListener(
    'keydown',
    (event) => {
      const t0 = event.timeStamp;
      // Window listeners run after React's root listeners, and a discrete event's update commits
      // before they do; reading offsetHeight then forces the style and layout the commit needs.
      const type = event.key.length === 1 || event.key === 'Backspace' ? 'input' : 'keydown';
      window.addEventListener(
        type,
        () => {
          void document.body.offsetHeight;
          work.push(performance.now() - t0);
        },
        { once: true },
      );
      requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
          samples.push(performance.now() - t0);
          const done = waiting;
          waiting = null;
          done?.();
        };
        channel.port2.postMessage(0);
      });
    },
    true,
  );
}
