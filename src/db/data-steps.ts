import { rescaleNavigatorsToRenderPixels } from '../modules/navigators/rescale-step.js';
import type { Queryable } from './client.js';

/**
 * Data steps: code a migration runs after its SQL, in the same transaction, once (recorded with the
 * migration in schema_migrations). Only for a rewrite SQL cannot make safely (SVG path data); keyed by
 * the migration's version, and written against the schema as of that migration, in plain SQL.
 */
export const DATA_STEPS: Readonly<Record<string, (tx: Queryable) => Promise<void>>> = {
  '0021_navigator_render_pixels': rescaleNavigatorsToRenderPixels,
};
