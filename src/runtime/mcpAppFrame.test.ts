import { describe, expect, it } from 'vitest';
import { APP_FRAME_HTML, APP_FRAME_VIEW, appConnectionAllowlist, appFrameCspOf, appFrameHeaders, appFrameQuery, appFrameResponse } from './mcpAppFrame';

describe('the frame document a view runs in', () => {
  it('with nothing declared: sandboxed, no network, an empty connection allowlist (so no WebRTC and no navigation anywhere)', () => {
    const headers = appFrameHeaders();
    expect(headers['content-security-policy']).toMatch(/^sandbox allow-scripts; default-src 'none'; /);
    expect(headers['content-security-policy']).toContain("connect-src 'none'");
    expect(headers['connection-allowlist']).toBe('()');
    expect(headers['connection-allowlist']).not.toContain('webrtc');
    expect(headers['connection-allowlist']).not.toContain('response-origin');
    expect(headers['referrer-policy']).toBe('no-referrer');
  });

  it('declared origins open exactly those: connect and resource origins in the allowlist, ws as http, each once', () => {
    const csp = { connectDomains: ['https://api.example.com', 'wss://live.example.com'], resourceDomains: ['https://cdn.example.com/', 'https://api.example.com'] };
    expect(appConnectionAllowlist(csp)).toBe('("https://api.example.com" "https://live.example.com" "https://cdn.example.com")');
    const policy = appFrameHeaders(csp)['content-security-policy'];
    expect(policy).toContain('connect-src https://api.example.com wss://live.example.com;');
    expect(policy).toContain("script-src 'unsafe-inline' https://cdn.example.com/ https://api.example.com");
  });

  it('its URL carries the declared origins, and reading them back keeps plain origins only (no header injection)', () => {
    const query = appFrameQuery({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] });
    expect(appFrameCspOf(new URLSearchParams(query))).toEqual({ connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] });
    const forged = new URLSearchParams([
      ['connect', 'https://ok.example.com'],
      ['connect', 'https://x.example.com"; webrtc=allow'],
      ['connect', "https://x.example.com; connect-src *"],
      ['resource', '*'],
      ['resource', 'javascript:alert(1)'],
    ]);
    const csp = appFrameCspOf(forged);
    expect(csp).toEqual({ connectDomains: ['https://ok.example.com'] });
    expect(appFrameHeaders(csp)['connection-allowlist']).toBe('("https://ok.example.com")');
  });

  it('answers the document with those headers; the document takes the view from its parent once, and does nothing top-level', async () => {
    const response = appFrameResponse(new URLSearchParams('connect=https%3A%2F%2Fapi.example.com'));
    expect(response.headers.get('connection-allowlist')).toBe('("https://api.example.com")');
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await response.text();
    expect(html).toBe(APP_FRAME_HTML);
    expect(html).toContain('if (parent === self) return;');
    expect(html).toContain(`data.type !== '${APP_FRAME_VIEW}'`);
    expect(html).toContain("removeEventListener('message', take)");
  });
});
