import type { StoredShape } from '../document.js';

/**
 * Where the editor loads and saves a frame's shapes. The island only talks to this interface: the
 * API's `GET|PUT /api/v1/navigator/{id}/images/{imageId}/shapes` (If-Match, 412 on a conflict) is
 * one implementation; the dashboard points the same calls at its own endpoint (session and CSRF
 * header instead of a key) by giving other URLs and headers.
 */
export interface ShapesStore {
  /** The frame's shapes as stored now, and their ETag. */
  load(): Promise<{ shapes: StoredShape[]; etag: string }>;
  /** Replaces the frame's shapes if they are still those `etag` names. */
  save(shapes: StoredShape[], etag: string): Promise<SaveResult>;
  /** Another frame's shapes (copy shapes from). */
  loadFrame(frameId: string): Promise<StoredShape[]>;
}

export type SaveResult =
  | { kind: 'saved'; etag: string; count: number }
  /** Someone else saved since `etag` was read (HTTP 412): nothing was stored. */
  | { kind: 'conflict' }
  /** Refused or failed: the message says why (a 422 names the item and field). */
  | { kind: 'failed'; message: string };

export interface HttpStoreOptions {
  /** GET and PUT of this frame's shapes. */
  shapesUrl: string;
  /** Another frame's shapes: `{frameId}` is replaced by its id. */
  frameShapesUrl: string;
  /** Extra request headers (a CSRF token in the dashboard). */
  headers?: Record<string, string>;
}

async function messageOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: unknown };
    if (typeof body.message === 'string') return body.message;
  } catch {
    // not JSON
  }
  return `The server answered ${res.status}`;
}

/** The store over HTTP: same-origin fetches with the page's cookies and the given headers. */
export function httpShapesStore(options: HttpStoreOptions): ShapesStore {
  const headers = { accept: 'application/json', ...options.headers };
  const get = async (url: string) => {
    const res = await fetch(url, { headers, credentials: 'same-origin', cache: 'no-store' });
    if (!res.ok) throw new Error(await messageOf(res));
    return { shapes: (await res.json()) as StoredShape[], etag: res.headers.get('etag') ?? '' };
  };
  return {
    load: () => get(options.shapesUrl),
    async loadFrame(frameId) {
      return (await get(options.frameShapesUrl.replace('{frameId}', encodeURIComponent(frameId)))).shapes;
    },
    async save(shapes, etag) {
      let res: Response;
      try {
        res = await fetch(options.shapesUrl, {
          method: 'PUT',
          credentials: 'same-origin',
          headers: { ...headers, 'content-type': 'application/json', ...(etag ? { 'if-match': etag } : {}) },
          body: JSON.stringify(shapes),
        });
      } catch {
        return { kind: 'failed', message: 'The server could not be reached; nothing was saved. Try again.' };
      }
      if (res.status === 412) return { kind: 'conflict' };
      if (!res.ok) return { kind: 'failed', message: await messageOf(res) };
      const frame = (await res.json()) as { shapes?: unknown[] };
      return { kind: 'saved', etag: res.headers.get('etag') ?? '', count: frame.shapes?.length ?? shapes.length };
    },
  };
}
