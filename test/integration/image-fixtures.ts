import zlib from 'node:zlib';
import sharp, { type Color } from 'sharp';
import { pngChunk } from './assets-fixtures.js';

/** Real images made in the test by libvips (no binary fixtures). */

const solid = (width: number, height: number, channels: 3 | 4, background: Color) => sharp({ create: { width, height, channels, background } });

/** A camera-like JPEG: 1600 x 1200 stored, EXIF orientation 6 (shown 1200 x 1600), a GPS position and a camera serial. */
export const jpegWithGps = () =>
  solid(1600, 1200, 3, { r: 180, g: 40, b: 40 })
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'X100' },
      IFD2: { BodySerialNumber: 'SERIAL-12345' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 13/1 5/1', GPSLongitudeRef: 'E', GPSLongitude: '21/1 0/1 42/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

/** A PNG with a half-transparent background, 700 x 500. */
export const pngWithAlpha = () => solid(700, 500, 4, { r: 0, g: 90, b: 200, alpha: 0.5 }).png().toBuffer();

/** A CMYK JPEG, 800 x 600. */
export const cmykJpeg = () => solid(800, 600, 3, { r: 20, g: 160, b: 60 }).toColourspace('cmyk').jpeg().toBuffer();

/** A 16-bit RGB PNG, 900 x 400. */
export const png16 = () => solid(900, 400, 3, { r: 250, g: 200, b: 10 }).toColourspace('rgb16').png().toBuffer();

/** An animated GIF of two 400 x 300 frames. */
export async function animatedGif(): Promise<Buffer> {
  const frames = await Promise.all(['red', 'blue'].map((c) => solid(400, 300, 3, c).png().toBuffer()));
  return sharp(frames, { join: { animated: true } })
    .gif({ delay: [100, 100] })
    .toBuffer();
}

/** A 1000 x 800 JPEG cut in half. */
export const truncatedJpeg = async () => {
  const whole = await sharp({ create: { width: 1000, height: 800, channels: 3, background: 'grey', noise: { type: 'gaussian', mean: 128, sigma: 50 } } })
    .jpeg()
    .toBuffer();
  return whole.subarray(0, Math.floor(whole.length / 2));
};

/** A decompression bomb: a PNG of a few dozen bytes declaring 100,000 x 100,000 RGB pixels (30 GB decoded). */
export function pngBomb(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(100_000, 0);
  header.writeUInt32BE(100_000, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(10_000))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}
