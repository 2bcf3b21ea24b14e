/**
 * The 360° viewer's rules, for the server render (what it writes for the viewer) and the viewer bundle
 * (components/panoramas/viewer.client.ts: where a portal or a point of interest is drawn). Plain functions, no DOM, no Node.
 *
 * Angles follow krpano, whose names the panorama's metadata uses (`hlookat`, `vlookat`): a portal's or
 * point's `x` is its yaw in degrees (0 the middle of the equirectangular image, positive to the right) and
 * `y` its pitch in degrees, positive DOWN (krpano's `atv`). The view's yaw/pitch below are the same.
 */

/** What the page writes for one panorama (the JSON block the viewer reads). */
export interface ViewerPanorama {
  id: string;
  name: string;
  src: string;
  /** Where the view starts (metadata.hlookat / vlookat, else 0). */
  yaw: number;
  pitch: number;
  portals: Array<{ to: string; name: string; yaw: number; pitch: number }>;
  /** Points of interest: their name and their links (http and https only, see poiLinks). */
  pois: Array<{ name: string; yaw: number; pitch: number; urls: string[] }>;
}

/** The fields of an API panorama the viewer uses. */
export interface PanoramaInput {
  id: string;
  name: string;
  src: string;
  metadata: { hlookat: number | null; vlookat: number | null };
  portals: Array<{ x: number; y: number; toPanoramaId: string | null }>;
  pois: Array<{ name: string; x: number; y: number; data?: { urls?: readonly string[] | null } | null }>;
}

/** At most this many links per point of interest are shown (the API takes 50). */
export const MAX_POI_LINKS = 10;

/**
 * The links of a point of interest the page shows: absolute http and https URLs only (no `javascript:`,
 * `data:` or relative ones, whatever was stored before the API checked), as the URL parser writes them,
 * without repeats, at most MAX_POI_LINKS.
 */
export function poiLinks(urls: readonly unknown[] | null | undefined): string[] {
  const out: string[] = [];
  for (const raw of urls ?? []) {
    if (typeof raw !== 'string' || raw.length > 2048) continue;
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      continue;
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) continue;
    if (!out.includes(url.href)) out.push(url.href);
    if (out.length === MAX_POI_LINKS) break;
  }
  return out;
}

/** A link's words: its host and path (`example.com/floor-plan`), the scheme and a lone `/` left out. */
export function linkText(href: string): string {
  const url = new URL(href);
  const rest = `${url.pathname === '/' ? '' : url.pathname}${url.search}`;
  return `${url.host.replace(/^www\./, '')}${rest}`;
}

/** Yaw in -180..180. */
export const wrapYaw = (yaw: number) => ((((yaw + 180) % 360) + 360) % 360) - 180;
/** Pitch in -90..90. */
export const clampPitch = (pitch: number) => Math.max(-90, Math.min(90, pitch));

/**
 * The viewer's data for a home's panoramas: each with its portals to the others of the same list (a
 * portal to a panorama that is not in it, or to none, is left out: the page shows no other home's
 * panorama) and its points of interest.
 */
export function viewerPanoramas(panoramas: PanoramaInput[]): ViewerPanorama[] {
  const names = new Map(panoramas.map((p) => [p.id, p.name]));
  return panoramas.map((p) => ({
    id: p.id,
    name: p.name,
    src: p.src,
    yaw: wrapYaw(p.metadata.hlookat ?? 0),
    pitch: clampPitch(p.metadata.vlookat ?? 0),
    portals: p.portals.flatMap((portal) => {
      const name = portal.toPanoramaId && portal.toPanoramaId !== p.id ? names.get(portal.toPanoramaId) : undefined;
      return name === undefined ? [] : [{ to: portal.toPanoramaId!, name, yaw: wrapYaw(portal.x), pitch: clampPitch(portal.y) }];
    }),
    pois: p.pois.map((poi) => ({ name: poi.name, yaw: wrapYaw(poi.x), pitch: clampPitch(poi.y), urls: poiLinks(poi.data?.urls) })),
  }));
}

/** A view of the sphere: where it looks (degrees, krpano's signs) and its vertical field of view. */
export interface View {
  yaw: number;
  pitch: number;
  /** Vertical field of view, degrees. */
  fov: number;
  width: number;
  height: number;
}

export const FOV = { min: 30, max: 100, start: 75 };

/** The field of view after zooming by `factor` (> 1 zooms out), kept within FOV. */
export const zoomFov = (fov: number, factor: number) => Math.max(FOV.min, Math.min(FOV.max, fov * factor));

const RAD = Math.PI / 180;

/**
 * Where a direction (yaw, pitch: krpano's signs) lands on the screen of `view`, in CSS pixels from the
 * top left, or null when it is behind the viewer or outside the screen. The same rectilinear projection
 * the viewer's shader inverts per pixel, so a marker sits on the spot of the image it names.
 */
export function project(yaw: number, pitch: number, view: View): { x: number; y: number } | null {
  // The direction in world space (pitch up positive; +z is yaw 0, +x yaw 90).
  const up = -pitch * RAD;
  const turn = yaw * RAD;
  const wx = Math.cos(up) * Math.sin(turn);
  const wy = Math.sin(up);
  const wz = Math.cos(up) * Math.cos(turn);
  // Into the camera: undo its yaw (about y), then its pitch (about x).
  const cy = -view.yaw * RAD;
  const x1 = wx * Math.cos(cy) + wz * Math.sin(cy);
  const z1 = -wx * Math.sin(cy) + wz * Math.cos(cy);
  const cp = -view.pitch * RAD;
  const y2 = wy * Math.cos(cp) - z1 * Math.sin(cp);
  const z2 = wy * Math.sin(cp) + z1 * Math.cos(cp);
  if (z2 <= 1e-6) return null;
  const focal = view.height / 2 / Math.tan((view.fov * RAD) / 2);
  const x = view.width / 2 + (x1 / z2) * focal;
  const y = view.height / 2 - (y2 / z2) * focal;
  if (x < 0 || x > view.width || y < 0 || y > view.height) return null;
  return { x, y };
}
