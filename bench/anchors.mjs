// Anchor figures copied from the shared harness's README (../shared/bench/README.md, "Figures
// measured on 2026-11-29 (2-core machine)": medians of 3 runs, Chromium 156, Node 20). Kept here
// so the bench can print them beside ours; scripts/bench.mjs warns if that heading has changed.
export const ANCHOR_HEADING = 'Figures measured on 2026-11-29';

/** Bundle size table (A): initial JS gzip -9 (GNU gzip) and the difference over bare React. */
export const SIZE_ANCHORS = {
  bare: { label: 'bare react + react-dom hello world', gzip9: 67_645 },
  aui: { label: '@assistant-ui/react Thread + useLocalRuntime', gzip9: 220_535, delta: 152_890 },
  aisdk: { label: '@ai-sdk/react useChat + hand-written list', gzip9: 116_017, delta: 48_372 },
  floor: { label: 'floor: react-dom + cmdk + radix Popover + zustand + react-query + zod', gzip9: 124_194, delta: 56_549 },
  copilot: { label: 'CopilotKit <CopilotChat/>', gzip9: 912_139, delta: 844_494 },
};

/**
 * Tables B (stream 2,000 deltas; ms = send → final text in DOM, paintMs = → next frame,
 * taskMs = TaskDuration CPU) and C/D (mount; ms = mount → next frame, domMs = → DOM; append
 * figures after that mount; heapMiB = JS heap after GC).
 */
export const BROWSER_ANCHORS = {
  naive: {
    label: 'naive zustand list',
    'stream:2000:burst': { ms: 153.5, paintMs: 164.0, taskMs: 98 },
    'stream:2000:task': { ms: 403.5, paintMs: 419.7, taskMs: 256 },
    'mount:1000': { ms: 95.0, domMs: 26.7, taskMs: 57, nodes: 3029, heapMiB: 2.5, appendFirstMs: 9.0, appendMedianMs: 4.4, appendTaskMs: 7.3 },
    'mount:5000': { ms: 319.7, domMs: 94.5, taskMs: 210, nodes: 15029, heapMiB: 4.9, appendFirstMs: 20.6, appendMedianMs: 14.5, appendTaskMs: 19.3 },
  },
  naiveRaf: {
    label: 'naive, deltas flushed per frame (reference)',
    'stream:2000:burst': { ms: 3.4, paintMs: 12.6, taskMs: 7 },
    'stream:2000:task': { ms: 71.3, paintMs: 87.9, taskMs: 34 },
  },
  aui: {
    label: 'assistant-ui (smooth off)',
    'stream:2000:burst': { ms: 94.8, paintMs: 108.5, taskMs: 63 },
    'stream:2000:task': { ms: 2393.8, paintMs: 2405.4, taskMs: 2225 },
    'mount:1000': { ms: 952.2, domMs: 782.1, taskMs: 740, nodes: 3033, heapMiB: 92.3, appendFirstMs: 140.9, appendMedianMs: 106.1, appendTaskMs: 119.6 },
    'mount:5000': { ms: 3729.8, domMs: 2366.1, taskMs: 2779, nodes: 15033, heapMiB: 442.8, appendFirstMs: 676.6, appendMedianMs: 609.8, appendTaskMs: 600.0 },
  },
  aisdk: {
    label: '@ai-sdk/react useChat',
    'stream:2000:burst': { ms: 92.4, paintMs: 102.5, taskMs: 59 },
    'stream:2000:task': { ms: 480.3, paintMs: 488.6, taskMs: 345 },
    'mount:1000': { ms: 89.1, domMs: 39.7, taskMs: 60, nodes: 3029, heapMiB: 3.2, appendFirstMs: 10.3, appendMedianMs: 4.7, appendTaskMs: 8.1 },
    'mount:5000': { ms: 314.6, domMs: 103.2, taskMs: 215, nodes: 15029, heapMiB: 5.9, appendFirstMs: 17.8, appendMedianMs: 13.0, appendTaskMs: 17.8 },
  },
};
