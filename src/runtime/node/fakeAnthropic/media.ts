/**
 * Images and documents as the Messages API checks them (its 400s, in its wording): the source
 * forms each block takes, the media types, base64 that decodes, an image's type matching its
 * bytes, its size (5 MB) and dimensions (8000 px, 2000 px in a request of more than 20 images),
 * at most 100 images, a PDF that is one and at most 100 PDF pages in a request.
 */

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const MAX_IMAGES = 100;
const MAX_PDF_PAGES = 100;
/** Base64 as the API decodes it: its alphabet, padded to whole quads (a character class, so a 5 MB string costs no backtracking). */
const base64 = (data: string) => data.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(data);

/** Where a content block is: message `m`, block `b`. */
type Placed = { block: any; m: number; b: number };

/** What an image's bytes say it is, and how large it is (when its header says). */
export function imageOf(bytes: Buffer): { type: string | null; width?: number; height?: number } {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return { type: 'image/png', width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return { type: 'image/gif', width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    if (bytes.toString('latin1', 12, 16) === 'VP8X' && bytes.length >= 30) return { type: 'image/webp', width: 1 + bytes.readUIntLE(24, 3), height: 1 + bytes.readUIntLE(27, 3) };
    return { type: 'image/webp' };
  }
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) {
    // The first start-of-frame marker holds the size.
    for (let at = 2; at + 9 < bytes.length; ) {
      if (bytes[at] !== 0xff) break;
      const marker = bytes[at + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) return { type: 'image/jpeg', height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      at += 2 + bytes.readUInt16BE(at + 2);
    }
    return { type: 'image/jpeg' };
  }
  return { type: null };
}

/** The image and document blocks of the user turns (top level and in tool results), in order, with where each is. */
function mediaBlocks(blocks: readonly Placed[]): { block: any; where: string }[] {
  const out: { block: any; where: string }[] = [];
  for (const { block, m, b } of blocks) {
    if (block?.type === 'image' || block?.type === 'document') out.push({ block, where: `messages.${m}.content.${b}` });
    if (block?.type === 'tool_result' && Array.isArray(block.content)) {
      block.content.forEach((x: any, i: number) => {
        if (x?.type === 'image' || x?.type === 'document') out.push({ block: x, where: `messages.${m}.content.${b}.tool_result.content.${i}` });
      });
    }
  }
  return out;
}

/** The first problem of the request's images and documents, or null. */
export function mediaProblem(blocks: readonly Placed[]): string | null {
  const media = mediaBlocks(blocks);
  const images = media.filter((x) => x.block.type === 'image').length;
  if (images > MAX_IMAGES) return `messages: Too many images: ${images} images were provided, but the maximum is ${MAX_IMAGES}.`;
  const maxSide = images > 20 ? 2000 : 8000;
  let pages = 0;
  for (const { block, where } of media) {
    const problem = block.type === 'image' ? imageProblem(block, `${where}.image`, maxSide) : documentProblem(block, `${where}.document`);
    if (typeof problem === 'string') return problem;
    pages += problem ?? 0;
  }
  if (pages > MAX_PDF_PAGES) return `A maximum of ${MAX_PDF_PAGES} PDF pages may be provided.`;
  return null;
}

function imageProblem(block: any, where: string, maxSide: number): string | null {
  const source = block.source;
  if (!source || typeof source !== 'object') return `${where}.source: Field required`;
  if (source.type === 'url') return typeof source.url === 'string' && /^https?:\/\//.test(source.url) ? null : `${where}.source.url.url: Input should be a valid URL`;
  if (source.type === 'file') return typeof source.file_id === 'string' ? null : `${where}.source.file.file_id: Field required`;
  if (source.type !== 'base64') return `${where}.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'url', 'file'`;
  if (!IMAGE_TYPES.includes(source.media_type)) return `${where}.source.base64.media_type: Input should be ${IMAGE_TYPES.map((t) => `'${t}'`).join(', ').replace(/, ([^,]*)$/, ' or $1')}`;
  if (typeof source.data !== 'string') return `${where}.source.base64.data: Field required`;
  if (!base64(source.data)) return `${where}.source.base64.data: Invalid base64 data`;
  if (source.data.length > MAX_IMAGE_BYTES) return `${where}.source.base64: image exceeds 5 MB maximum: ${source.data.length} bytes > ${MAX_IMAGE_BYTES} bytes`;
  const image = imageOf(Buffer.from(source.data, 'base64'));
  if (image.type === null) return `${where}.source.base64.data: Could not process image`;
  if (image.type !== source.media_type) return `${where}.source.base64.data: The image was specified using the ${source.media_type} media type, but the image appears to be a ${image.type} image`;
  if ((image.width ?? 0) > maxSide || (image.height ?? 0) > maxSide) {
    return `${where}.source.base64.data: At least one of the image dimensions exceed max allowed size${maxSide === 2000 ? ' for many-image requests' : ''}: ${maxSide} pixels`;
  }
  return null;
}

/** A document's problem, or (a PDF) its page count. */
function documentProblem(block: any, where: string): string | number {
  const source = block.source;
  if (!source || typeof source !== 'object') return `${where}.source: Field required`;
  if (block.title !== undefined && block.title !== null && typeof block.title !== 'string') return `${where}.title: Input should be a valid string`;
  if (block.context !== undefined && block.context !== null && typeof block.context !== 'string') return `${where}.context: Input should be a valid string`;
  switch (source.type) {
    case 'base64': {
      if (source.media_type !== 'application/pdf') return `${where}.source.base64.media_type: Input should be 'application/pdf'`;
      if (typeof source.data !== 'string') return `${where}.source.base64.data: Field required`;
      if (!base64(source.data)) return `${where}.source.base64.data: Invalid base64 data`;
      const pdf = Buffer.from(source.data, 'base64').toString('latin1');
      if (!pdf.startsWith('%PDF-')) return 'The PDF specified was not valid.';
      return Math.max(1, pdf.match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0);
    }
    case 'text':
      if (source.media_type !== 'text/plain') return `${where}.source.text.media_type: Input should be 'text/plain'`;
      if (typeof source.data !== 'string') return `${where}.source.text.data: Field required`;
      return source.data.trim() ? 0 : `${where}.source.text.data: text document must be non-empty`;
    case 'content':
      if (typeof source.content === 'string') return source.content.trim() ? 0 : `${where}.source.content.content: content must be non-empty`;
      if (!Array.isArray(source.content) || source.content.length === 0) return `${where}.source.content.content: Input should be a valid string or a non-empty list`;
      for (const [i, x] of source.content.entries()) {
        if (x?.type !== 'text' && x?.type !== 'image') return `${where}.source.content.content.${i}: Input tag '${String(x?.type)}' found using 'type' does not match any of the expected tags: 'text', 'image'`;
        if (x.type === 'image') {
          const problem = imageProblem(x, `${where}.source.content.content.${i}.image`, 8000);
          if (problem) return problem;
        }
      }
      return 0;
    case 'url':
      return typeof source.url === 'string' && /^https?:\/\//.test(source.url) ? 0 : `${where}.source.url.url: Input should be a valid URL`;
    case 'file':
      return typeof source.file_id === 'string' ? 0 : `${where}.source.file.file_id: Field required`;
    default:
      return `${where}.source: Input tag '${String(source.type)}' found using 'type' does not match any of the expected tags: 'base64', 'text', 'content', 'url', 'file'`;
  }
}
