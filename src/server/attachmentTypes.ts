/**
 * What a file is, from its content (never its name): the magic numbers of
 * the first bytes for binary kinds, and for text the whole file (valid UTF-8,
 * no NUL; JSON parsed). Used by the attachment routes before anything is stored.
 */

/** The media types an attachment may have unless the host says otherwise. */
export const DEFAULT_ATTACHMENT_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/csv', 'text/markdown', 'application/json'];

/** Types a browser may show in the page itself; everything else is served as a download. SVG and HTML never are. */
export const INLINE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain']);

/** The text types: checked whole, as UTF-8 without NUL. */
export const TEXT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/csv', 'text/markdown', 'application/json']);

/** What the first bytes showed: a kind with its media type and words for a person. */
export interface Sniffed {
  mediaType: string;
  /** What it looked like, for a refusal: "a Windows program (.exe)". */
  label: string;
}

const ascii = (bytes: Uint8Array, at: number, text: string) => {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (bytes[at + i] !== text.charCodeAt(i)) return false;
  return true;
};
const bytesAt = (bytes: Uint8Array, at: number, sig: readonly number[]) => bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

/** Binary signatures, in order: the allow list's kinds, then kinds a refusal names. */
const SIGNATURES: readonly { test: (b: Uint8Array) => boolean; mediaType: string; label: string }[] = [
  { test: (b) => bytesAt(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), mediaType: 'image/png', label: 'a PNG image' },
  { test: (b) => bytesAt(b, 0, [0xff, 0xd8, 0xff]), mediaType: 'image/jpeg', label: 'a JPEG image' },
  { test: (b) => ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a'), mediaType: 'image/gif', label: 'a GIF image' },
  { test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP'), mediaType: 'image/webp', label: 'a WebP image' },
  { test: (b) => ascii(b, 0, '%PDF-'), mediaType: 'application/pdf', label: 'a PDF document' },
  { test: (b) => ascii(b, 0, 'MZ') && b.subarray(0, 64).includes(0), mediaType: 'application/vnd.microsoft.portable-executable', label: 'a Windows program (.exe or .dll)' },
  { test: (b) => bytesAt(b, 0, [0x7f, 0x45, 0x4c, 0x46]), mediaType: 'application/x-elf', label: 'a Linux program' },
  {
    test: (b) => [[0xfe, 0xed, 0xfa, 0xce], [0xfe, 0xed, 0xfa, 0xcf], [0xce, 0xfa, 0xed, 0xfe], [0xcf, 0xfa, 0xed, 0xfe], [0xca, 0xfe, 0xba, 0xbe]].some((sig) => bytesAt(b, 0, sig)),
    mediaType: 'application/x-mach-binary',
    label: 'a macOS program',
  },
  { test: (b) => bytesAt(b, 0, [0x00, 0x61, 0x73, 0x6d]), mediaType: 'application/wasm', label: 'a WebAssembly program' },
  { test: (b) => bytesAt(b, 0, [0x50, 0x4b, 0x03, 0x04]) || bytesAt(b, 0, [0x50, 0x4b, 0x05, 0x06]), mediaType: 'application/zip', label: 'a ZIP archive (or an Office document, which is one)' },
  { test: (b) => bytesAt(b, 0, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), mediaType: 'application/x-ole-storage', label: 'an old Office document (.doc, .xls)' },
  { test: (b) => bytesAt(b, 0, [0x1f, 0x8b]), mediaType: 'application/gzip', label: 'a gzip archive' },
  { test: (b) => bytesAt(b, 0, [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07]), mediaType: 'application/vnd.rar', label: 'a RAR archive' },
  { test: (b) => bytesAt(b, 0, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]), mediaType: 'application/x-7z-compressed', label: 'a 7-Zip archive' },
  { test: (b) => ascii(b, 0, 'BM') && bytesAt(b, 6, [0, 0, 0, 0]), mediaType: 'image/bmp', label: 'a BMP image' },
  { test: (b) => bytesAt(b, 0, [0x49, 0x49, 0x2a, 0x00]) || bytesAt(b, 0, [0x4d, 0x4d, 0x00, 0x2a]), mediaType: 'image/tiff', label: 'a TIFF image' },
  { test: (b) => ascii(b, 4, 'ftypheic') || ascii(b, 4, 'ftypheix') || ascii(b, 4, 'ftypmif1'), mediaType: 'image/heic', label: 'an HEIC photo' },
  { test: (b) => ascii(b, 4, 'ftypavif'), mediaType: 'image/avif', label: 'an AVIF image' },
  { test: (b) => ascii(b, 4, 'ftyp'), mediaType: 'video/mp4', label: 'a video (MP4 or QuickTime)' },
  { test: (b) => bytesAt(b, 0, [0x4f, 0x67, 0x67, 0x53, 0x00]), mediaType: 'audio/ogg', label: 'an Ogg audio file' },
  { test: (b) => (ascii(b, 0, 'ID3') && b.length > 3 && b[3]! < 0x0a) || bytesAt(b, 0, [0xff, 0xfb]), mediaType: 'audio/mpeg', label: 'an MP3 audio file' },
  { test: (b) => ascii(b, 0, 'RIFF') && ascii(b, 8, 'WAVE'), mediaType: 'audio/wav', label: 'a WAV audio file' },
  { test: (b) => bytesAt(b, 0, [0xff, 0xfe]) || bytesAt(b, 0, [0xfe, 0xff]), mediaType: 'text/plain; charset=utf-16', label: 'UTF-16 text (save it as UTF-8)' },
];

/** What text that starts like markup is: HTML and SVG are never taken inline, and are refused unless the host allows them. */
function markupOf(text: string): Sniffed | null {
  const head = text.replace(/^\uFEFF/, '').trimStart().slice(0, 1024).toLowerCase();
  if (/^<svg[\s>]/.test(head) || (head.startsWith('<?xml') && head.includes('<svg'))) return { mediaType: 'image/svg+xml', label: 'an SVG image' };
  if (/^<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/.test(head)) return { mediaType: 'text/html', label: 'an HTML page' };
  if (head.startsWith('<?xml')) return { mediaType: 'application/xml', label: 'an XML document' };
  if (head.startsWith('#!')) return { mediaType: 'text/x-script', label: 'a script (it starts with #!)' };
  return null;
}

/**
 * What the first bytes (a few hundred, or the whole file when shorter) say:
 * a binary kind, or `text` (confirmed once the whole file has been read).
 * @example
 * sniffStart(new Uint8Array([0x4d, 0x5a, 0x90, 0])); // → { kind: 'binary', mediaType: 'application/vnd.microsoft.portable-executable', label: 'a Windows program (.exe or .dll)' }
 */
export function sniffStart(head: Uint8Array): ({ kind: 'binary' } & Sniffed) | ({ kind: 'markup' } & Sniffed) | { kind: 'text' } | { kind: 'unknown'; label: string } {
  for (const sig of SIGNATURES) if (sig.test(head)) return { kind: 'binary', mediaType: sig.mediaType, label: sig.label };
  if (head.includes(0)) return { kind: 'unknown', label: 'binary data of a kind this server does not know' };
  // The head may end inside a character: only the bytes before the last few must be UTF-8.
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
  } catch {
    return { kind: 'unknown', label: 'binary data of a kind this server does not know (it is not UTF-8 text)' };
  }
  const markup = markupOf(text);
  return markup ? { kind: 'markup', ...markup } : { kind: 'text' };
}

/** Text that looks like a table: at least two lines, each with the same number (one or more) of one delimiter outside quotes. */
export function looksLikeCsv(text: string): boolean {
  const lines = text.split(/\r?\n/, 21).filter((line, i, all) => line !== '' || i < all.length - 1).slice(0, 20);
  if (lines.length < 2) return false;
  return [',', ';', '\t'].some((delimiter) => {
    const counts = lines.map((line) => {
      let n = 0;
      let quoted = false;
      for (const ch of line) {
        if (ch === '"') quoted = !quoted;
        else if (ch === delimiter && !quoted) n++;
      }
      return n;
    });
    return counts[0]! > 0 && counts.every((n) => n === counts[0]);
  });
}

/** A text type the client named (`Content-Type`), as a hint between the text types only: content still decides. */
export function textHint(contentType: string | undefined): string | null {
  const essence = contentType?.split(';')[0]!.trim().toLowerCase();
  if (essence === 'text/csv' || essence === 'application/csv') return 'text/csv';
  if (essence === 'text/markdown' || essence === 'text/x-markdown') return 'text/markdown';
  if (essence === 'application/json') return 'application/json';
  return null;
}

/**
 * The type of a whole text file: JSON when it parses (or must, when the client
 * said JSON), else CSV or Markdown when the client said so or (CSV) it looks
 * like a table, else plain text. A string back is a refusal, in words.
 */
export function textTypeOf(text: string, hint: string | null): { mediaType: string } | { refused: string } {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (hint === 'application/json' || /^[[{]/.test(trimmed)) {
    try {
      JSON.parse(trimmed);
      return { mediaType: 'application/json' };
    } catch (error) {
      if (hint === 'application/json') return { refused: `It was sent as JSON but is not valid JSON (${error instanceof Error ? error.message : String(error)}).` };
    }
  }
  if (hint === 'text/csv' || hint === 'text/markdown') return { mediaType: hint };
  return { mediaType: looksLikeCsv(text.slice(0, 65_536)) ? 'text/csv' : 'text/plain' };
}

/** Bytes in words, in binary units as people read file sizes: "20 MB", "512 KB", "12 bytes". */
export function sizeInWords(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} byte${bytes === 1 ? '' : 's'}`;
}

/** A label for a media type on the allow list (for words such as "PNG, JPEG, … or JSON"). */
export function typeLabel(mediaType: string): string {
  const named: Record<string, string> = {
    'image/png': 'PNG',
    'image/jpeg': 'JPEG',
    'image/gif': 'GIF',
    'image/webp': 'WebP',
    'application/pdf': 'PDF',
    'text/plain': 'plain text',
    'text/csv': 'CSV',
    'text/markdown': 'Markdown',
    'application/json': 'JSON',
  };
  return named[mediaType] ?? mediaType;
}
