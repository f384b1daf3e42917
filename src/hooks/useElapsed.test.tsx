import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDuration, useElapsed } from './useElapsed';

afterEach(() => vi.useRealTimers());

describe('formatDuration', () => {
  it('reads as a person would say it', () => {
    expect(formatDuration(340)).toBe('0.3 s');
    expect(formatDuration(4_240)).toBe('4.2 s');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(125_000)).toBe('2 min 05 s');
    expect(formatDuration(-5)).toBe('0.0 s');
  });
});

describe('useElapsed', () => {
  it('is the fixed duration once ended, null before it started', () => {
    expect(renderHook(() => useElapsed(1_000, 3_500, false)).result.current).toBe(2_500);
    expect(renderHook(() => useElapsed(undefined, undefined, false)).result.current).toBeNull();
  });

  it('ticks every second while running and stops ticking when it ends', () => {
    vi.useFakeTimers();
    vi.setSystemTime(100_000);
    const { result, rerender } = renderHook(({ end, running }) => useElapsed(99_000, end, running), { initialProps: { end: undefined as number | undefined, running: true } });
    expect(result.current).toBe(1_000);
    act(() => vi.advanceTimersByTime(2_000));
    expect(result.current).toBe(3_000);
    rerender({ end: 102_500, running: false });
    act(() => vi.advanceTimersByTime(5_000));
    expect(result.current).toBe(3_500);
  });

  it('counts from first sight when the start time is another clock’s (a fixture, a skewed server)', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_800_000_000_000);
    const { result } = renderHook(() => useElapsed(0, undefined, true));
    expect(result.current).toBe(0);
    act(() => vi.advanceTimersByTime(1_000));
    expect(result.current).toBe(1_000);
  });

  it('is a live clock within the first seconds, not frozen at its first reading', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const { result } = renderHook(() => useElapsed(1_000_000 - 15, undefined, true));
    expect(formatDuration(result.current!)).toBe('0.0 s');
    act(() => vi.advanceTimersByTime(300));
    expect(formatDuration(result.current!)).toBe('0.3 s');
    act(() => vi.advanceTimersByTime(1_000));
    expect(formatDuration(result.current!)).toBe('1.3 s');
  });
});
