import { describe, expect, it } from 'vitest';
import { appCsp, appSrcdoc } from './appDocument';

describe('the policy a view runs under', () => {
  it('by default: no network at all, inline script and style only', () => {
    const csp = appCsp();
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("connect-src 'none'");
    expect(csp).toContain("script-src 'unsafe-inline'");
    expect(csp).toContain("frame-src 'none'");
    expect(csp).not.toMatch(/https?:/);
  });

  it('declared origins open exactly their directives; anything that is not a plain origin is dropped', () => {
    const csp = appCsp({ connectDomains: ['https://api.example.com', "https://x.example; script-src *"], resourceDomains: ['https://cdn.example.com'] });
    expect(csp).toContain('connect-src https://api.example.com;');
    expect(csp).toContain("script-src 'unsafe-inline' https://cdn.example.com");
    expect(csp).toContain('img-src data: blob: https://cdn.example.com');
    expect(csp).not.toContain('x.example');
  });

  it('puts the policy first, before any of the view’s own markup, in standards mode', () => {
    const doc = appSrcdoc('<!DOCTYPE html><html><head><script>evil()</script></head><body>hi</body></html>');
    expect(doc.startsWith('<!doctype html><meta http-equiv="Content-Security-Policy" content="default-src')).toBe(true);
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<script>'));
    expect(doc.match(/<!doctype/gi)).toHaveLength(1);
    expect(doc).toContain('<body>hi</body>');
  });
});
