import type { ReactNode, RefObject } from 'react';

/** What the transcript hands its rows, in flow (`FlowRows`) or virtualised (`VirtualRows`). */
export interface RowsProps {
  /** The log element that scrolls. */
  scrollRef: RefObject<HTMLDivElement | null>;
  /** Row ids, in transcript order (stable keys). */
  ids: readonly string[];
  renderRow: (index: number) => ReactNode;
  /** Told whenever the reader reaches or leaves the newest content. */
  onAtEndChange: (atEnd: boolean) => void;
  /** Filled with a function that brings the newest content into view. */
  jumpRef: RefObject<() => void>;
  /** Filled with a function that brings the row at an index into view (its end at the viewport's end when it is below). */
  revealRef?: RefObject<(index: number) => void>;
  /** First guess of a row's height in px, before it is measured. */
  estimate: number;
}

/** How close to the end (px) still counts as "at the end". */
export const END_THRESHOLD = 48;
