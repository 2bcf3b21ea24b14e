/** The downloads add-on: groups by title and their items by asset. */
import { must } from '../../../../clients/typescript/src/index.js';
import type { Manifest } from '../manifest.js';
import { type PlanContext, fieldChanges, match, planContainer, planEnabled, show } from './core.js';

type Downloads = NonNullable<NonNullable<Manifest['addons']>['downloads']>;

export function planDownloads(ctx: PlanContext, downloads: Downloads): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.downloads;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/downloads', { params: { path: estate() } }));
  planEnabled(ctx, 'downloads', downloads.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/downloads', { params: { path: estate() }, body: { enabled } }));
  });
  planContainer(ctx, {
    what: 'downloads group',
    container: 'downloads groups',
    current: doc?.groups ?? [],
    declared: downloads.groups ?? [],
    keyOf: (g) => g.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (g) => show(g.title),
    diff: () => ({ details: [], changed: {} }),
    create: async (d) => (await must(api.POST('/api/v1/estates/{estateId}/downloads/groups', { params: { path: estate() }, body: { title: d.title } }))).id,
    update: async () => {},
    remove: async (groupId) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/downloads/groups/{groupId}', { params: { path: { ...estate(), groupId } } }));
    },
    readOrder: async () => (await read()).groups.map((g) => g.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/downloads/groups/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (group, groupId) => {
      const current = doc?.groups.find((g) => g.title === group.title);
      const at = () => ({ ...estate(), groupId: groupId() });
      const where = `in group ${show(group.title)}`;
      planContainer(ctx, {
        what: 'downloads item',
        container: `items of downloads group ${show(group.title)}`,
        current: current?.items ?? [],
        declared: group.items ?? [],
        keyOf: (i) => i.assetId,
        keyWanted: (d) => ctx.assetIdNow(d.asset),
        labelOf: (d) => `${d.asset} ${where}`,
        short: (d) => d.asset,
        labelOfCurrent: (i) => `${show(i.label)} ${where}`,
        diff: (d, i) => fieldChanges({ label: d.label }, i),
        create: async (d) =>
          (
            await must(
              api.POST('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items', {
                params: { path: at() },
                body: { assetId: ctx.ids.asset(d.asset), ...(d.label === undefined ? {} : { label: d.label }) },
              }),
            )
          ).id,
        update: async (itemId, body) => {
          await must(api.PATCH('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/{itemId}', { params: { path: { ...at(), itemId } }, body }));
        },
        remove: async (itemId) => {
          await must(api.DELETE('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/{itemId}', { params: { path: { ...at(), itemId } } }));
        },
        readOrder: async () => (await read()).groups.find((g) => g.id === groupId())?.items.map((i) => i.id) ?? [],
        order: async (orderedIds) => {
          await must(api.PUT('/api/v1/estates/{estateId}/downloads/groups/{groupId}/items/order', { params: { path: at() }, body: { orderedIds } }));
        },
      });
    },
  });
}
