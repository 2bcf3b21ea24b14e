import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';
import { TEST_DATABASE } from '../helpers/database.js';
import { imageUploads } from './assets-fixtures.js';

interface ImageAsset {
  id: string;
  src: string;
  width: number | null;
  height: number | null;
  variants: Array<{ width: number; height: number; src: string; sizeBytes: number | null }>;
  placeholder: string | null;
}

/** Noise, so that every format spreads its data over the whole file (a flat picture compresses to a few bytes). */
const picture = () => sharp({ create: { width: 700, height: 500, channels: 3, background: 'grey', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });

/** Every raster type the service accepts and sharp can write here (HEIC shares AVIF's container and its check). */
const TYPES: Array<[string, string, () => Promise<Buffer>]> = [
  ['JPEG', 'image/jpeg', () => picture().jpeg().toBuffer()],
  ['progressive JPEG', 'image/jpeg', () => picture().jpeg({ progressive: true }).toBuffer()],
  ['PNG', 'image/png', () => picture().png().toBuffer()],
  ['GIF', 'image/gif', () => picture().gif().toBuffer()],
  ['WebP', 'image/webp', () => picture().webp().toBuffer()],
  ['AVIF', 'image/avif', () => picture().avif({ effort: 0 }).toBuffer()],
  ['TIFF', 'image/tiff', () => picture().tiff().toBuffer()],
];

/**
 * Issue 25, item 3: a truncated JPEG's upload answer promised a size and two variants, whose URLs then
 * answered 500 and 404, and the asset later said `width: null`. What the upload answer says must stay
 * true: JPEG, PNG and GIF are decoded as far as their data goes (as browsers do); WebP, AVIF, HEIF and
 * TIFF cannot be, so their answer promises a size and variants only when the container says the file is
 * whole, and `null` otherwise.
 */
describe(`truncated images keep what their upload answer said (${TEST_DATABASE})`, () => {
  let t: TestApp;
  let a: TestOrg;
  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg();
  });
  afterAll(async () => t?.close());

  const { upload, settled } = imageUploads<ImageAsset>(() => ({ t, key: a.key }));
  const get = (src: string) => t.request({ method: 'GET', url: new URL(src).pathname });

  it.each(TYPES.map(([label, type, make]) => ({ label, type, make })))(
    '$label cut at 20%, 50% and 95%: every promise of the answer holds, every variant URL it gave answers 200',
    async ({ label, type, make }) => {
      const whole = await make();
      for (const fraction of [0.2, 0.5, 0.95]) {
        const cut = whole.subarray(0, Math.floor(whole.length * fraction));
        const answer = await upload(`cut-${fraction}`, type, cut);
        // The variant URLs of the answer, asked for at once (while the job is queued or running) and after.
        const early = await Promise.all(answer.variants.map((v) => get(v.src)));
        const done = await settled(answer.id);
        const context = `${label} at ${fraction}`;
        expect(
          early.map((r) => r.statusCode),
          context,
        ).toEqual(answer.variants.map(() => 200));
        if (answer.width !== null) {
          expect(done.width, context).toBe(answer.width);
          expect(done.height, context).toBe(answer.height);
          expect(
            done.variants.map((v) => [v.width, v.height]),
            context,
          ).toEqual(answer.variants.map((v) => [v.width, v.height]));
          expect(done.placeholder, context).not.toBeNull();
        } else {
          expect(answer.variants, context).toEqual([]);
        }
        for (const v of answer.variants) {
          const res = await get(v.src);
          expect(res.statusCode, context).toBe(200);
          expect((await sharp(res.rawPayload).metadata()).width, context).toBe(v.width);
        }
        // The original is served as uploaded, cut and all.
        expect((await get(answer.src)).rawPayload.equals(cut), context).toBe(true);
      }
    },
  );

  it('cut JPEG, PNG and GIF are decoded as far as their data goes: size and variants at once, as a browser shows them', async () => {
    for (const [label, type, make] of TYPES.filter(([, type]) => ['image/jpeg', 'image/png', 'image/gif'].includes(type))) {
      const whole = await make();
      const answer = await upload('half', type, whole.subarray(0, Math.floor(whole.length / 2)));
      expect([answer.width, answer.height], label).toEqual([700, 500]);
      expect(
        answer.variants.map((v) => v.width),
        label,
      ).toEqual([320, 640]);
      expect(
        (await settled(answer.id)).variants.every((v) => v.sizeBytes !== null),
        label,
      ).toBe(true);
    }
  });

  it('whole WebP and AVIF files (their header within the bytes the upload reads) get their size in the upload answer; cut ones say null', async () => {
    const flat = () => sharp({ create: { width: 700, height: 500, channels: 3, background: { r: 40, g: 140, b: 90 } } });
    const wholes: Array<[string, string, Buffer]> = [
      ['WebP', 'image/webp', await flat().webp().toBuffer()],
      ['AVIF', 'image/avif', await flat().avif({ effort: 0 }).toBuffer()],
    ];
    for (const [label, type, data] of wholes) {
      const answer = await upload('whole', type, data);
      expect([answer.width, answer.height], label).toEqual([700, 500]);
      expect(
        (await settled(answer.id)).variants.map((v) => v.width),
        label,
      ).toEqual([320, 640]);
      const cut = await upload('cut', type, data.subarray(0, Math.floor(data.length * 0.9)));
      expect([cut.width, cut.height, cut.variants], label).toEqual([null, null, []]);
    }
  });
});
