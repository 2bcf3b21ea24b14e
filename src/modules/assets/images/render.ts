import exifReader from 'exif-reader';
import sharp, { type Sharp, type SharpOptions } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import { type StoredVariant, VARIANT_WIDTHS } from '../schemas.js';

/**
 * Largest image decoded, in pixels (about 60 megapixels: 8000 x 7500; today's 48 MP phone sensors pass).
 * libvips checks it against the header before it allocates, so a decompression bomb (a small file that
 * declares 100,000 x 100,000 pixels) is refused without decoding a byte of it.
 */
export const MAX_INPUT_PIXELS = 60_000_000;
/** WebP cannot encode a side longer than this; a variant that would be taller is not planned. */
const WEBP_MAX_SIDE = 16_383;
const PLACEHOLDER_SIDE = 100;

// Raster formats libvips is asked to read. SVG is deliberately absent: it is never rasterised.
const RASTER_TYPES = new Set(['image/jpeg', 'image/png', 'image/webp', 'image/avif', 'image/gif', 'image/tiff', 'image/heic', 'image/heif']);

/** Whether an asset of this type gets dimensions and variants (made after the upload answers). */
export const isRasterImage = (mimeType: string) => RASTER_TYPES.has(mimeType.split(';')[0]!.trim().toLowerCase());

/**
 * Decoder options for untrusted input: the pixel limit, one page (an animated GIF or a multi-page TIFF
 * gives its first frame), top-to-bottom reading so libvips streams instead of holding the whole
 * image, and a file cut short is decoded as far as its data goes, the rest grey, as a browser shows it
 * (issue 25, item 3: the upload answer had promised the size and variants of a truncated JPEG that the
 * job then refused to decode). What no decoder can read (a corrupt header, a cut WebP or AVIF) is still
 * an error; the upload does not promise a size for those (images/whole.ts).
 */
const INPUT: SharpOptions = { limitInputPixels: MAX_INPUT_PIXELS, sequentialRead: true, failOn: 'none', pages: 1 };

// libvips threads per image, and its operation cache: one core stays free for the event loop and
// the memory of a finished image is returned. Process-wide settings of the library.
sharp.concurrency(1);
sharp.cache(false);

export interface ImageFacts {
  /** After EXIF orientation. */
  width: number;
  height: number;
  hasLocation: boolean;
}

export interface RenderedImage extends ImageFacts {
  placeholder: string;
  variants: Array<StoredVariant & { data: Buffer }>;
}

/** The variants an image of this size gets: each width narrower than it, height in proportion. */
export function plannedVariants(width: number, height: number): StoredVariant[] {
  return VARIANT_WIDTHS.filter((w) => w < width)
    .map((w) => ({ width: w, height: Math.max(1, Math.round((height * w) / width)), sizeBytes: null }))
    .filter((v) => v.height <= WEBP_MAX_SIDE);
}

/** Whether EXIF or XMP carries a GPS position. An EXIF block the reader cannot parse counts when it names a GPS directory. */
function hasGps(exif: Buffer | undefined, xmp: Buffer | undefined): boolean {
  if (xmp && /GPS(Latitude|Longitude)/.test(xmp.toString('latin1'))) return true;
  if (!exif) return false;
  try {
    const gps = exifReader(exif).GPSInfo;
    return gps !== undefined && (gps.GPSLatitude !== undefined || gps.GPSLongitude !== undefined);
  } catch {
    // 0x8825 is the GPS IFD pointer tag, in either byte order.
    return exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
  }
}

/**
 * What the header says: size after orientation and whether a position is recorded. Reads only the
 * header, so the first few hundred kilobytes of a file are usually enough (the upload probes those);
 * undefined when the library cannot read it or it is over the pixel limit.
 */
export async function readImageFacts(input: Buffer): Promise<ImageFacts | undefined> {
  try {
    const meta = await sharp(input, INPUT).metadata();
    const size = meta.autoOrient;
    if (!size?.width || !size.height) return undefined;
    return { width: size.width, height: size.height, hasLocation: hasGps(meta.exif, meta.xmp) };
  } catch {
    return undefined;
  }
}

/** Pixels of the largest variant up to which it is decoded once and the smaller ones are made from it. */
const SHARED_DECODE_MAX_PIXELS = 4_000_000;

/** A ThumbHash (base64) of an image already small or held as raw pixels: at most 100 x 100 RGBA pixels go in. */
async function placeholderOf(image: Sharp): Promise<string> {
  const { data, info } = await image.resize(PLACEHOLDER_SIDE, PLACEHOLDER_SIDE, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
}

const webp = (image: Sharp, v: StoredVariant) => image.resize(v.width, v.height, { fit: 'fill' }).webp({ quality: 78, effort: 3 }).toBuffer();

/** The original decoded once, oriented, sRGB 8-bit, at the given size: the source of every smaller output. */
async function decodedAt(input: Buffer, width: number, height: number): Promise<() => Sharp> {
  const { data, info } = await sharp(input, INPUT)
    .autoOrient()
    .resize(width, height, { fit: 'fill' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  return () => sharp(data, { raw });
}

/**
 * Decodes the image and makes its WebP variants and placeholder. The largest variant is decoded from the
 * original (JPEG and WebP shrink while loading) and the others are scaled from its pixels; a variant too
 * large to hold as pixels (a very tall image) is instead decoded from the original each time, streaming.
 * Output is sRGB, 8 bits, orientation applied; sharp writes no metadata unless asked, so no EXIF, XMP,
 * IPTC, ICC or GPS reaches a variant. Throws when the file cannot be read as an image. `pace` runs
 * between the steps (the processor's yield to request traffic).
 */
export async function renderImage(input: Buffer, pace: () => Promise<void> = async () => undefined): Promise<RenderedImage> {
  const facts = await readImageFacts(input);
  if (!facts) throw new Error('not a readable image (or over the pixel limit)');
  const planned = plannedVariants(facts.width, facts.height);
  const top = planned.at(-1);
  const fromOriginal = () => sharp(input, INPUT).autoOrient().toColourspace('srgb');
  const shared = top && top.width * top.height <= SHARED_DECODE_MAX_PIXELS ? await decodedAt(input, top.width, top.height) : undefined;
  const variants: RenderedImage['variants'] = [];
  for (const v of planned.reverse()) {
    await pace();
    const data = await webp((shared ?? fromOriginal)(), v);
    variants.unshift({ ...v, sizeBytes: data.length, data });
  }
  await pace();
  return { ...facts, placeholder: await placeholderOf((shared ?? fromOriginal)()), variants };
}
