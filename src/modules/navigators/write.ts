import type { Database, Queryable } from '../../db/client.js';
import { registerUniqueMessage } from '../../db/errors.js';
import { q } from '../../db/query.js';
import { notFound } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { emitEvent, emitEvents } from '../webhooks/events.js';
import { type NavigatorRow, navigatorsRepository as repo } from './repository.js';

registerUniqueMessage('navigator_frames_angle_uq', 'The navigator already has a frame at this angle');
registerUniqueMessage('navigators_parent_reference_uq', 'The parent navigator already has a nested navigator for this building');

/** `data` of a navigator.updated event: which navigator of which estate changed (a CDN purge signal). */
export const navigatorEventData = (estateId: string, navigatorId: string) => ({ estateId, navigatorId });

/**
 * Every change to a navigator, its frames, shapes or POIs: one transaction that locks the navigator
 * row first (so two writes to one navigator never interleave, and a frame's angle check holds until
 * commit) and emits navigator.updated with the change. Another organization's navigator is 404.
 */
export function navigatorWrite<T>(
  db: Database,
  organizationId: string,
  navigatorId: string,
  fn: (tx: Queryable, navigator: NavigatorRow) => Promise<T>,
): Promise<T> {
  if (!isUuid(navigatorId)) return Promise.reject(notFound('Navigator', navigatorId));
  return db.transaction(async (tx) => {
    const navigator = await repo.lock(tx, organizationId, navigatorId);
    if (!navigator) throw notFound('Navigator', navigatorId);
    const result = await fn(tx, navigator);
    await emitEvent(tx, organizationId, 'navigator.updated', navigatorEventData(navigator.estateId, navigator.id));
    return result;
  });
}

/**
 * Called by asset deletion inside its transaction, before the asset row goes: removes every frame that
 * shows the asset (with its shapes and POIs), so a page never shows a broken frame. The navigators are
 * locked first, in id order, as every navigator write locks its navigator first.
 */
export async function detachAssetFromNavigators(tx: Queryable, organizationId: string, assetId: string): Promise<void> {
  const navigators = await q(tx)
    .selectFrom('navigators')
    .select(['id', 'estateId'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', (eb) =>
      eb.selectFrom('navigatorFrames').select('navigatorId').where('organizationId', '=', organizationId).where('assetId', '=', assetId),
    )
    .orderBy('id')
    .forUpdate()
    .execute();
  if (navigators.length === 0) return;
  await q(tx).deleteFrom('navigatorFrames').where('organizationId', '=', organizationId).where('assetId', '=', assetId).execute();
  await emitEvents(
    tx,
    organizationId,
    navigators.map((n) => ({ type: 'navigator.updated', data: navigatorEventData(n.estateId, n.id) })),
  );
}
