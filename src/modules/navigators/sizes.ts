import type { NavigatorOptions } from './schemas.js';

/**
 * Shape coordinates are the renders' pixels (DECISIONS, the viewer buyers know): a navigator's sizes
 * come from its first frame's image, and every frame's image has the overlay's aspect ratio.
 */

/** How far a frame's aspect ratio may be from the overlay's: 1 % (a render cropped by a few pixels). */
export const ASPECT_TOLERANCE = 0.01;

/** The option keys that make up a navigator's sizes: a PATCH naming one of them sets the sizes. */
export const SIZE_KEYS = ['sourceWidth', 'sourceHeight', 'overlayWidth', 'overlayHeight'] as const;

export interface PixelSize {
  width: number;
  height: number;
}

const aspect = (width: number, height: number) => (width / height).toFixed(3);

/** The options with every size set to the image's pixels (a navigator's first frame). */
export function sizedTo(options: NavigatorOptions, image: PixelSize): NavigatorOptions {
  return { ...options, sourceWidth: image.width, sourceHeight: image.height, overlayWidth: image.width, overlayHeight: image.height };
}

/** Whether the image has the overlay's aspect ratio within ASPECT_TOLERANCE. */
export function sameAspect(image: PixelSize, overlay: Pick<NavigatorOptions, 'overlayWidth' | 'overlayHeight'>): boolean {
  const ratio = image.width / image.height / (overlay.overlayWidth / overlay.overlayHeight);
  return Math.abs(ratio - 1) <= ASPECT_TOLERANCE;
}

/** Why a frame's image does not fit the overlay, naming both sizes; undefined when it fits. */
export function aspectProblem(field: string, image: PixelSize, overlay: Pick<NavigatorOptions, 'overlayWidth' | 'overlayHeight'>): string | undefined {
  if (sameAspect(image, overlay)) return undefined;
  const { overlayWidth: w, overlayHeight: h } = overlay;
  return (
    `${field}: the image is ${image.width} × ${image.height} pixels (aspect ${aspect(image.width, image.height)}) but the navigator's ` +
    `overlay is ${w} × ${h} (options.overlayWidth × options.overlayHeight, aspect ${aspect(w, h)}); every frame's image must have ` +
    `the overlay's aspect ratio within 1%`
  );
}

/** Why new overlay sizes do not fit the frames the navigator has (the first that does not), naming both sizes. */
export function overlayProblem(
  overlay: Pick<NavigatorOptions, 'overlayWidth' | 'overlayHeight'>,
  frames: ReadonlyArray<PixelSize & { angle: number }>,
): string | undefined {
  const misfit = frames.find((f) => !sameAspect(f, overlay));
  if (!misfit) return undefined;
  const { overlayWidth: w, overlayHeight: h } = overlay;
  return (
    `options.overlayWidth × options.overlayHeight: ${w} × ${h} (aspect ${aspect(w, h)}) does not have the aspect ratio of the frame at ` +
    `${misfit.angle}°, whose image is ${misfit.width} × ${misfit.height} pixels (aspect ${aspect(misfit.width, misfit.height)}); ` +
    `every frame's image must have the overlay's aspect ratio within 1%`
  );
}
