import { findFrame } from '../components/navigator/render.js';
import type { PageData } from '../render/types.js';

/**
 * The frame `frameId` when the page's navigator (or one nested in it) has it, else null: an address's
 * `?frame=` that names no frame of the page is the plain page (a visitor's URL, never an error).
 */
export function knownFrame(data: PageData, frameId: string | null | undefined): string | null {
  if (!frameId || !data.navigator) return null;
  return findFrame(data.navigator, frameId) ? frameId : null;
}
