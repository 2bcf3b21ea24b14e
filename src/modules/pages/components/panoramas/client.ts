import { $, $$ } from '../../client/dom.js';
import type { Words } from '../../client/words.js';
import type { ViewerPanorama } from '../../shared/panorama.js';

/** What viewer.client.ts exports (its own bundle, `data-viewer-src`): imported when a viewer opens, never before. */
export interface ViewerModule {
  openViewer(host: HTMLElement, panoramas: ViewerPanorama[], startId: string, words: Words, onClose: () => void): void;
}

/**
 * A home's panoramas (server: `section[data-module="panoramas"]`, render.tsx): each "Open 360°
 * view" button imports the viewer's bundle (once) and opens the panorama in place, above the list; Close
 * or Escape gives the focus back to the button. Without the script the list links each image.
 */
export function initPanoramas(section: HTMLElement, words: Words): void {
  const src = section.dataset.viewerSrc;
  if (!src) return;
  let panoramas: ViewerPanorama[] = [];
  try {
    panoramas = JSON.parse($('.panorama-data', section)?.textContent ?? '[]') as ViewerPanorama[];
  } catch {
    return;
  }
  let viewer: Promise<ViewerModule> | undefined;
  for (const button of $$<HTMLButtonElement>('button.panorama-open', section)) {
    button.addEventListener('click', async () => {
      viewer ??= import(src) as Promise<ViewerModule>;
      const module = await viewer.catch(() => undefined);
      if (!module) {
        // The viewer did not load (offline, blocked): the image itself, as without the script.
        viewer = undefined;
        const link = button.closest('li')?.querySelector('a');
        if (link) location.assign(link.href);
        return;
      }
      module.openViewer(section, panoramas, button.dataset.panoramaId ?? '', words, () => button.focus());
    });
  }
}
