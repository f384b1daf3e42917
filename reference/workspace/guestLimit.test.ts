import { describe, expect, it } from 'vitest';
import { createGuestLimiter, GuestLimitError } from './guestLimit';

describe('the demo’s guest sign-ups', () => {
  it('10,000 page loads from one address make 30 guests; another address still gets in; the window frees them again', () => {
    let time = 0;
    const limiter = createGuestLimiter({}, () => time);
    let made = 0;
    let refused: GuestLimitError | null = null;
    for (let i = 0; i < 10_000; i++) {
      try {
        limiter.take('203.0.113.7');
        made++;
      } catch (error) {
        refused = error as GuestLimitError;
      }
    }
    expect(made).toBe(30);
    expect(refused).toBeInstanceOf(GuestLimitError);
    expect(refused!.message).toBe('Too many new visitors from your address just now; try again in 10 minutes.');
    expect(refused!.retryAfterSeconds).toBe(600);
    expect(() => limiter.take('198.51.100.2')).not.toThrow();
    time += 600_001;
    expect(() => limiter.take('203.0.113.7')).not.toThrow();
  });

  it('a crowd of addresses meets the total', () => {
    const limiter = createGuestLimiter({ perAddress: 5, total: 100 }, () => 0);
    let made = 0;
    for (let i = 0; i < 1_000; i++) {
      try {
        limiter.take(`10.0.${i >> 8}.${i & 255}`);
        made++;
      } catch (error) {
        expect((error as Error).message).toBe('The demo is taking no more new visitors just now; try again in a few minutes.');
      }
    }
    expect(made).toBe(100);
  });
});
