import { describe, expect, it } from 'vitest';
import { appResourceOf, isAllowedOrigin, resultApp, toolUi, toolVisibility, withAppPointer } from './mcpApp';

describe('MCP App views on the consuming side', () => {
  it('finds a tool’s view in _meta.ui or the older flat key, only for ui:// uris, visibility defaulting to both', () => {
    expect(toolUi({ _meta: { ui: { resourceUri: 'ui://get-time/mcp-app.html' } } })).toEqual({ resourceUri: 'ui://get-time/mcp-app.html', visibility: ['model', 'app'] });
    expect(toolUi({ _meta: { 'ui/resourceUri': 'ui://old/view.html' } })?.resourceUri).toBe('ui://old/view.html');
    expect(toolUi({ _meta: { ui: { resourceUri: 'ui://x/v.html', visibility: ['app', 'bogus'] } } })?.visibility).toEqual(['app']);
    expect(toolUi({ _meta: { ui: { resourceUri: 'https://evil.example/view.html' } } })).toBeUndefined();
    expect(toolUi({})).toBeUndefined();
    // Who may call it, with or without a view of its own (the system monitor's poll tool names none).
    expect(toolVisibility({ _meta: { ui: { visibility: ['app'] } } })).toEqual(['app']);
    expect(toolVisibility({ _meta: { ui: { resourceUri: 'ui://x/v.html', visibility: ['model', 'bogus'] } } })).toEqual(['model']);
    expect(toolVisibility({ _meta: { ui: { visibility: ['bogus'] } } })).toBeUndefined();
    expect(toolVisibility({ _meta: { ui: { resourceUri: 'ui://x/v.html' } } })).toBeUndefined();
    expect(toolVisibility({})).toBeUndefined();
  });

  it('a result carries a pointer to the view, never the HTML', () => {
    const result = withAppPointer({ content: [{ type: 'text', text: 'now' }], _meta: { other: 1 } }, 'ui://a/b.html');
    expect(resultApp(result)).toEqual({ resourceUri: 'ui://a/b.html' });
    expect(result._meta?.other).toBe(1);
    expect(resultApp({ content: [], _meta: { 'chatsurface/app': { resourceUri: 'javascript:alert(1)' } } })).toBeUndefined();
  });

  it('checks a view: HTML text or base64 blob, declared origins kept only when plain https/wss (or loopback), permissions named', () => {
    const view = appResourceOf('maps', 'ui://maps/view.html', [
      {
        uri: 'ui://maps/view.html',
        mimeType: 'text/html;profile=mcp-app',
        blob: btoa('<html><body>map</body></html>'),
        _meta: {
          ui: {
            csp: { connectDomains: ['https://api.maps.example', "https://x.example; script-src 'unsafe-eval'"], resourceDomains: ['https://*.cdn.example', 'http://evil.example', '*'] },
            permissions: { geolocation: {}, usb: {} },
            prefersBorder: false,
          },
        },
      },
    ]);
    expect(view.html).toBe('<html><body>map</body></html>');
    expect(view.csp).toEqual({ connectDomains: ['https://api.maps.example'], resourceDomains: ['https://*.cdn.example'] });
    expect(view.problems).toHaveLength(3);
    expect(view.problems[0]).toContain('not an https:// or wss:// origin');
    expect(view.permissions).toEqual(['geolocation']);
    expect(view.prefersBorder).toBe(false);
  });

  it('refuses, in words, a view that is not HTML, is empty, or is too large', () => {
    expect(() => appResourceOf('s', 'ui://s/v', [{ uri: 'ui://s/v', mimeType: 'application/javascript', text: 'alert(1)' }])).toThrow(/not HTML/);
    expect(() => appResourceOf('s', 'ui://s/v', [{ uri: 'ui://s/v', mimeType: 'text/html', text: '  ' }])).toThrow(/has no HTML/);
    expect(() => appResourceOf('s', 'ui://s/v', [])).toThrow(/returned nothing/);
    expect(() => appResourceOf('s', 'ui://s/v', [{ uri: 'ui://s/v', text: 'x'.repeat(4 * 1024 * 1024 + 1) }])).toThrow(/more than the 4 MB/);
  });

  it('origins: https and wss hosts with a dot, loopback http only', () => {
    expect(isAllowedOrigin('https://api.example.com')).toBe(true);
    expect(isAllowedOrigin('wss://rt.example.com:8443')).toBe(true);
    expect(isAllowedOrigin('http://127.0.0.1:3000')).toBe(true);
    expect(isAllowedOrigin('http://example.com')).toBe(false);
    expect(isAllowedOrigin('https://*')).toBe(false);
    expect(isAllowedOrigin("https://a.example 'unsafe-inline'")).toBe(false);
    expect(isAllowedOrigin('data:')).toBe(false);
  });
});
