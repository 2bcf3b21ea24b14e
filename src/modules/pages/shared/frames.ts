/**
 * Rules the server render and the browser bundle both need, in one place (STYLE.md "One folder per
 * component"): plain functions, no DOM and no Node.
 */

/** Distance between two angles around the circle, in degrees (0..180). */
export function angleDistance(a: number, b: number): number {
  const d = Math.abs((((a - b) % 360) + 360) % 360);
  return Math.min(d, 360 - d);
}

/**
 * The index of the frame shown first: the one whose angle is nearest `startingAngle` around the
 * circle; of two equally near, the earlier one. -1 for no frames. The server marks that frame as the
 * starting one and the browser starts there too, so the view never jumps when the script loads.
 */
export function startingIndex(angles: number[], startingAngle: number | undefined): number {
  const start = startingAngle ?? 0;
  let best = -1;
  angles.forEach((angle, i) => {
    if (best < 0 || angleDistance(angle, start) < angleDistance(angles[best]!, start)) best = i;
  });
  return best;
}

/**
 * The index of the frame a page shows first: the one its address names (`?frame={id}`, the no-JS "View"
 * link of that frame), else the starting frame (`startingIndex`). The server renders that frame with its
 * shapes; the browser starts there too.
 */
export function shownIndex(frames: Array<{ id: string; angle: number }>, startingAngle: number | undefined, requested: string | null | undefined): number {
  const named = requested ? frames.findIndex((f) => f.id === requested) : -1;
  return named >= 0
    ? named
    : startingIndex(
        frames.map((f) => f.angle),
        startingAngle,
      );
}

/** The frame an address names (`?frame=`), lower-cased, or null: only a UUID-shaped value counts. */
export function frameOfQuery(value: unknown): string | null {
  return typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value) ? value.toLowerCase() : null;
}
