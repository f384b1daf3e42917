import { defaultMessages, type ChatSurfaceMessages } from '../messages/defaults';
import type { ContentBlock } from '../../runtime/envelope';

/** Image types a card shows (no SVG: it can carry script). */
export const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif']);
/** Audio types a card plays. */
export const AUDIO_TYPES = new Set(['audio/mpeg', 'audio/mp3', 'audio/wav', 'audio/x-wav', 'audio/ogg', 'audio/webm', 'audio/mp4', 'audio/aac', 'audio/flac']);
/** Largest inline image or audio a card shows, in base64 characters (about 6 MB of data). */
export const MAX_INLINE_BASE64 = 8 * 1024 * 1024;

/** A content block as the card shows it: a picture, a sound, a link, an embedded text, or why not. */
export type MediaItem =
  | { kind: 'image'; src: string; alt: string }
  | { kind: 'audio'; src: string; label: string; mimeType: string }
  | { kind: 'link'; href: string | null; name: string; uri: string; description?: string }
  | { kind: 'text'; uri: string; text: string }
  | { kind: 'refused'; message: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The non-text blocks of a result, sanitised: images and audio become
 * `data:` urls only for allowed mime types, valid base64 and a bounded size;
 * a resource link keeps its name and uri and is a link only for `https:`
 * (or `data:` of an allowed image type); an embedded text resource shows its
 * text. Anything else says, in words, why it is not shown.
 */
export function mediaItems(blocks: readonly ContentBlock[], title: string, words: ChatSurfaceMessages['media'] = defaultMessages.media): MediaItem[] {
  const items: MediaItem[] = [];
  let images = 0;
  let sounds = 0;
  for (const block of blocks) {
    if (block.type === 'image' || block.type === 'audio') {
      const isImage = block.type === 'image';
      const mime = block.mimeType.toLowerCase();
      const n = isImage ? ++images : ++sounds;
      const kind = isImage ? 'image' : 'audio';
      if (!(isImage ? IMAGE_TYPES : AUDIO_TYPES).has(mime)) {
        items.push({ kind: 'refused', message: words.wrongType(kind, block.mimeType, [...(isImage ? IMAGE_TYPES : AUDIO_TYPES)]) });
        continue;
      }
      const data = block.data.replace(/\s+/g, '');
      if (data.length > MAX_INLINE_BASE64) {
        items.push({ kind: 'refused', message: words.tooLarge(kind, Math.round((data.length * 3) / 4 / 1048576)) });
        continue;
      }
      if (!data || !BASE64.test(data)) {
        items.push({ kind: 'refused', message: words.notBase64(kind) });
        continue;
      }
      const described = typeof block._meta?.alt === 'string' && block._meta.alt.trim() ? block._meta.alt.trim() : null;
      const src = `data:${mime};base64,${data}`;
      if (isImage) items.push({ kind: 'image', src, alt: described ?? words.image(title, n) });
      else items.push({ kind: 'audio', src, label: described ?? words.audio(title, n), mimeType: mime });
    } else if (block.type === 'resource_link') {
      const item: MediaItem = { kind: 'link', href: linkHref(block.uri), name: block.title ?? block.name, uri: block.uri };
      if (block.description) item.description = block.description;
      items.push(item);
    } else if (block.type === 'resource') {
      const resource = block.resource;
      if ('text' in resource) items.push({ kind: 'text', uri: resource.uri, text: resource.text });
      else if (resource.mimeType && IMAGE_TYPES.has(resource.mimeType.toLowerCase()) && BASE64.test(resource.blob) && resource.blob.length <= MAX_INLINE_BASE64) {
        items.push({ kind: 'image', src: `data:${resource.mimeType.toLowerCase()};base64,${resource.blob}`, alt: `${title}: ${resource.uri}` });
      } else items.push({ kind: 'link', href: null, name: resource.uri, uri: resource.uri });
    }
  }
  return items;
}

/** `https:` urls (and `data:` urls of an allowed image type) are links; anything else is shown as text only. */
export function linkHref(uri: string): string | null {
  const compact = uri.replace(/[\u0000-\u0020\u007f]/g, '');
  if (/^https:\/\//i.test(compact)) {
    try {
      return new URL(compact).href;
    } catch {
      return null;
    }
  }
  const data = /^data:([a-z/+.-]+);base64,/i.exec(compact);
  return data && IMAGE_TYPES.has(data[1]!.toLowerCase()) ? compact : null;
}
