import { describe, expect, it } from 'vitest';
import type { McpAppResource } from '../mcpApp';
import { withoutPublicSuffixWildcards } from './viewOrigins';

const view = (connectDomains: string[], resourceDomains: string[] = []): McpAppResource => ({
  uri: 'ui://maps/view',
  server: 'maps',
  html: '<p>map</p>',
  csp: { connectDomains, resourceDomains },
  permissions: [],
  problems: [],
});

describe("a view's wildcard origins", () => {
  it('are left out over a public suffix, ICANN or private, and kept over a registrable domain', async () => {
    const checked = await withoutPublicSuffixWildcards(
      view(['https://*.co.uk', 'https://*.maps.example.com', 'wss://*.github.io', 'https://api.example.com'], ['https://*.com', 'https://*.cdn.example.org', 'https://*.s3.amazonaws.com']),
    );
    expect(checked.csp).toEqual({ connectDomains: ['https://*.maps.example.com', 'https://api.example.com'], resourceDomains: ['https://*.cdn.example.org'] });
    expect(checked.problems).toEqual([
      'The view asked for "https://*.co.uk" in connectDomains: a wildcard over a public suffix (co.uk) would reach every site under it; it was left out.',
      'The view asked for "wss://*.github.io" in connectDomains: a wildcard over a public suffix (github.io) would reach every site under it; it was left out.',
      'The view asked for "https://*.com" in resourceDomains: a wildcard over a public suffix (com) would reach every site under it; it was left out.',
      'The view asked for "https://*.s3.amazonaws.com" in resourceDomains: a wildcard over a public suffix (s3.amazonaws.com) would reach every site under it; it was left out.',
    ]);
  });

  it('without tldts installed, no wildcard is kept: it cannot be told safe, and the view says why', async () => {
    const checked = await withoutPublicSuffixWildcards(view(['https://*.maps.example.com', 'https://api.example.com']), null);
    expect(checked.csp).toEqual({ connectDomains: ['https://api.example.com'] });
    expect(checked.problems).toEqual([
      'The view asked for "https://*.maps.example.com" in connectDomains: a wildcard is kept only when the server can tell it is not over a public suffix (install the package "tldts" beside chatsurface); it was left out.',
    ]);
  });
});
