/**
 * Whether a stored image holds every byte its container declares, read from its first bytes and its size
 * only (the upload has nothing else before it answers). The question matters for the formats whose
 * decoder cannot render a cut-short file (WebP, AVIF, HEIF, TIFF): for them the upload answer promises a
 * size and variants only when the file is whole. JPEG, PNG and GIF are decoded as far as their data goes,
 * as browsers do, so a truncated one still gets its variants and needs no check.
 */
export function sizeKnownAtUpload(mimeType: string, head: Buffer, size: number): boolean {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  return PARTIAL_DECODE.has(type) || isWhole(type, head, size);
}

/** Formats libvips decodes as far as their data goes (with failOn: 'none'), the rest left grey. */
const PARTIAL_DECODE = new Set(['image/jpeg', 'image/png', 'image/gif']);

/**
 * true: whole as far as the container tells; false: cut short, or it cannot be told from the first
 * bytes (TIFF, whose directories may sit anywhere; an ISO BMFF box that runs "to the end of the file").
 */
function isWhole(mimeType: string, head: Buffer, size: number): boolean {
  switch (mimeType) {
    case 'image/webp':
      // RIFF: 'RIFF', the chunk's size (little-endian, the file minus 8 bytes), 'WEBP'.
      return head.length >= 12 && head.toString('latin1', 0, 4) === 'RIFF' && head.readUInt32LE(4) + 8 <= size;
    case 'image/avif':
    case 'image/heic':
    case 'image/heif':
      return boxesEndAt(head, size);
    default:
      return false;
  }
}

/** ISO BMFF (AVIF, HEIF): the top-level boxes, walked from the first bytes, end exactly at the file's end. */
function boxesEndAt(head: Buffer, size: number): boolean {
  let offset = 0;
  while (offset < size) {
    if (offset + 8 > head.length) return false; // a box header past the bytes read: cannot tell
    let length = head.readUInt32BE(offset);
    if (length === 1) {
      if (offset + 16 > head.length) return false;
      const big = head.readBigUInt64BE(offset + 8);
      if (big > BigInt(Number.MAX_SAFE_INTEGER)) return false;
      length = Number(big);
    } else if (length === 0) {
      return false; // "to the end of the file": a cut cannot be seen
    }
    if (length < 8) return false;
    offset += length;
  }
  return offset === size;
}
