import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../runtime/envelope';
import { McpContentBlocks } from './McpContentBlocks';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('<McpContentBlocks>', () => {
  it('an image with alt text (its own, or the card’s title), audio with a name, a link with name and uri', () => {
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'Here is the chart.' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', data: PNG, mimeType: 'image/png', _meta: { alt: 'Sales by month' } },
      { type: 'audio', data: 'SUQzBAAAAAAA', mimeType: 'audio/mpeg' },
      { type: 'resource_link', uri: 'https://example.com/report.pdf', name: 'report.pdf', title: 'Quarterly report' },
    ];
    render(<McpContentBlocks blocks={blocks} title="Chart" />);
    expect(screen.getByRole('img', { name: 'Chart: image 1' })).toHaveAttribute('src', `data:image/png;base64,${PNG}`);
    expect(screen.getByRole('img', { name: 'Sales by month' })).toBeInTheDocument();
    expect(screen.getByLabelText('Chart: audio 1')).toHaveAttribute('src', 'data:audio/mpeg;base64,SUQzBAAAAAAA');
    const link = screen.getByRole('link', { name: 'Quarterly report' });
    expect(link).toHaveAttribute('href', 'https://example.com/report.pdf');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(screen.getByText('https://example.com/report.pdf')).toBeInTheDocument();
    expect(screen.queryByText('Here is the chart.')).toBeNull();
  });

  it('sanitises: no SVG, no bad base64, a javascript: or http: link is text, not a link', () => {
    const blocks: ContentBlock[] = [
      { type: 'image', data: btoa('<svg onload="alert(1)"/>'), mimeType: 'image/svg+xml' },
      { type: 'image', data: 'not base64 "><script>', mimeType: 'image/png' },
      { type: 'resource_link', uri: 'javascript:alert(1)', name: 'click me' },
      { type: 'resource_link', uri: 'http://plain.example/x', name: 'plain' },
    ];
    render(<McpContentBlocks blocks={blocks} title="Chart" />);
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByText(/image\/svg\+xml is not shown/)).toBeInTheDocument();
    expect(screen.getByText(/not valid base64/)).toBeInTheDocument();
    expect(screen.getByText('click me')).toBeInTheDocument();
    expect(screen.getByText('javascript:alert(1)').tagName).toBe('CODE');
  });

  it('an embedded text resource shows its uri and text; a text-only result renders nothing', () => {
    const { container, rerender } = render(<McpContentBlocks blocks={[{ type: 'resource', resource: { uri: 'file:///notes.md', mimeType: 'text/markdown', text: '# Notes' } }]} title="Read" />);
    expect(screen.getByText('# Notes')).toBeInTheDocument();
    expect(screen.getByText('file:///notes.md')).toBeInTheDocument();
    rerender(<McpContentBlocks blocks={[{ type: 'text', text: 'only text' }]} title="Read" />);
    expect(container).toBeEmptyDOMElement();
  });
});
