import type { Queryable } from '../../db/client.js';
import { scalePath } from './path.js';

/**
 * The data step of migrations/0021_navigator_render_pixels.sql. Every navigator that has frames gets
 * its first frame's pixel size (the oldest frame: the one that set the sizes under the new rule) as
 * sourceWidth/sourceHeight and overlayWidth/overlayHeight, and its shapes and POIs are scaled from
 * the old overlay to those pixels. The page used to stretch the overlay over the render
 * (`preserveAspectRatio="none"`), so x -> x * imageWidth / overlayWidth (and y alike) keeps every
 * shape where buyers saw it on that frame.
 *
 * Written against the schema as of 0021 in plain SQL (never the typed query builder, which follows
 * the latest schema): a database upgraded from before 0021 runs it with that schema.
 */
export async function rescaleNavigatorsToRenderPixels(tx: Queryable): Promise<void> {
  const navigators = await tx.query<{ id: string; options: Record<string, unknown> | null; width: number | null; height: number | null }>(
    `SELECT DISTINCT ON (f.navigator_id) n.id, n.options, a.width, a.height
       FROM navigator_frames AS f
       JOIN navigators AS n ON n.id = f.navigator_id
       JOIN assets AS a ON a.id = f.asset_id
      ORDER BY f.navigator_id, f.created_at, f.id`,
  );
  for (const n of navigators) {
    if (!n.width || !n.height) continue;
    const number = (key: string, fallback: number) => {
      const value = n.options?.[key];
      return typeof value === 'number' && value > 0 ? value : fallback;
    };
    const sx = n.width / number('overlayWidth', 1920);
    const sy = n.height / number('overlayHeight', 1080);
    if (sx !== 1 || sy !== 1) await rescale(tx, n.id, sx, sy, n.width, n.height);
    await tx.query(
      `UPDATE navigators SET sizes_set = true, updated_at = now(),
         options = coalesce(options, '{}'::jsonb) || jsonb_build_object('sourceWidth', $2::int, 'sourceHeight', $3::int, 'overlayWidth', $2::int, 'overlayHeight', $3::int)
       WHERE id = $1`,
      [n.id, n.width, n.height],
    );
  }
}

/** Shapes per UPDATE: bounds the JSON bound to one statement (2,000 shapes per frame, many frames). */
const BATCH = 2_000;

async function rescale(tx: Queryable, navigatorId: string, sx: number, sy: number, width: number, height: number): Promise<void> {
  const shapes = await tx.query<{ id: string; shape: string }>(
    'SELECT s.id, s.shape FROM navigator_shapes AS s JOIN navigator_frames AS f ON f.id = s.frame_id WHERE f.navigator_id = $1 ORDER BY s.id',
    [navigatorId],
  );
  const rows: Array<{ id: string; shape: string; max_x: number; max_y: number }> = [];
  for (const s of shapes) {
    const scaled = scalePath(s.shape, sx, sy);
    // Stored paths were normalised by the service, so they parse; one that does not is left as it is.
    if (!scaled.ok) continue;
    rows.push({ id: s.id, shape: scaled.value.path, max_x: Math.min(scaled.value.maxX, width), max_y: Math.min(scaled.value.maxY, height) });
  }
  for (let i = 0; i < rows.length; i += BATCH) {
    await tx.query(
      `UPDATE navigator_shapes AS s SET shape = v.shape, max_x = v.max_x, max_y = v.max_y
         FROM json_to_recordset($1::json) AS v (id uuid, shape text, max_x double precision, max_y double precision)
        WHERE s.id = v.id`,
      [JSON.stringify(rows.slice(i, i + BATCH))],
    );
  }
  // POIs are points: scaled in place, rounded as paths are (3 decimals), kept inside the new overlay.
  await tx.query(
    `UPDATE navigator_pois AS p
        SET x = least(round((p.x * $2)::numeric, 3)::double precision, $4),
            y = least(round((p.y * $3)::numeric, 3)::double precision, $5)
       FROM navigator_frames AS f
      WHERE f.id = p.frame_id AND f.navigator_id = $1`,
    [navigatorId, sx, sy, width, height],
  );
}
