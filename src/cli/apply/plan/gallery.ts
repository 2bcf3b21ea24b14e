/** The gallery add-on: sections by title, items by asset over the whole gallery (an item that changes section moves). */
import { must } from '../../../../clients/typescript/src/index.js';
import type { Manifest } from '../manifest.js';
import { type PlanContext, fieldChanges, match, planContainer, planEnabled, show } from './core.js';

type Gallery = NonNullable<NonNullable<Manifest['addons']>['gallery']>;

/** Marks a gallery item's section as to be set when the action runs (a new section has no id before). */
const MOVE = Symbol('move');

export function planGallery(ctx: PlanContext, gallery: Gallery): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.gallery;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/gallery', { params: { path: estate() } }));
  planEnabled(ctx, 'gallery', gallery.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/gallery', { params: { path: estate() }, body: { enabled } }));
  });
  // Items are matched by asset over the whole gallery, so an item that changes section is moved, not made again.
  type Item = NonNullable<Gallery['items']>[number];
  type CurrentItem = NonNullable<typeof doc>['items'][number];
  const { pairs } = match(
    [...(doc?.items ?? []), ...(doc?.sections ?? []).flatMap((s) => s.items)],
    [...(gallery.items ?? []), ...(gallery.sections ?? []).flatMap((s) => s.items ?? [])],
    (i) => i.assetId,
    (d) => ctx.assetIdNow(d.asset),
  );
  const matched = new Map<Item, CurrentItem | undefined>(pairs.map((p) => [p.declared, p.current]));
  const claimed = new Set(pairs.map((p) => p.current).filter((c) => c !== undefined));

  const sectionName = (id: string | null) => (id === null ? 'ungrouped' : `section ${show(doc?.sections.find((s) => s.id === id)?.title)}`);
  const items = (where: string, container: string, declared: readonly Item[], currentHere: readonly CurrentItem[], sectionId: () => string | null) => {
    const mine = new Set(declared.map((d) => matched.get(d)).filter((c) => c !== undefined));
    // What stays here (declared here, or named nowhere) and what moves in from elsewhere.
    const here = currentHere.filter((c) => !claimed.has(c) || mine.has(c));
    const movedIn = [...mine].filter((c) => !currentHere.includes(c));
    planContainer(ctx, {
      what: 'gallery item',
      container,
      unsettled: movedIn.length > 0,
      current: [...here, ...movedIn],
      declared,
      keyOf: (i) => i.id,
      keyWanted: (d) => matched.get(d)?.id,
      labelOf: (d) => `${d.asset} ${where}`,
      short: (d) => d.asset,
      labelOfCurrent: (i) => `${show(i.asset.name)} ${where}`,
      diff: (d, i) => {
        const { details, changed } = fieldChanges({ caption: d.caption }, i);
        if (!movedIn.includes(i)) return { details, changed };
        return { details: [...details, `place: ${sectionName(i.sectionId)} -> ${where.replace(/^in /, '')}`], changed: { ...changed, sectionId: MOVE } };
      },
      create: async (d) =>
        (
          await must(
            api.POST('/api/v1/estates/{estateId}/gallery/items', {
              params: { path: estate() },
              body: { assetId: ctx.ids.asset(d.asset), sectionId: sectionId(), ...(d.caption === undefined ? {} : { caption: d.caption }) },
            }),
          )
        ).id,
      update: async (itemId, changed) => {
        const body = 'sectionId' in changed ? { ...changed, sectionId: sectionId() } : changed;
        await must(api.PATCH('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId } }, body }));
      },
      remove: async (itemId) => {
        await must(api.DELETE('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId } } }));
      },
      readOrder: async () => {
        const now = await read();
        const id = sectionId();
        return (id === null ? now.items : (now.sections.find((s) => s.id === id)?.items ?? [])).map((i) => i.id);
      },
      order: async (orderedIds) => {
        const id = sectionId();
        if (id === null) await must(api.PUT('/api/v1/estates/{estateId}/gallery/items/order', { params: { path: estate() }, body: { orderedIds } }));
        else
          await must(
            api.PUT('/api/v1/estates/{estateId}/gallery/sections/{sectionId}/items/order', {
              params: { path: { ...estate(), sectionId: id } },
              body: { orderedIds },
            }),
          );
      },
    });
  };

  planContainer(ctx, {
    what: 'gallery section',
    container: 'gallery sections',
    current: doc?.sections ?? [],
    declared: gallery.sections ?? [],
    keyOf: (s) => s.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (s) => show(s.title),
    diff: (d, s) => fieldChanges({ description: d.description }, s),
    beforeRemove: (section) => {
      for (const item of section.items.filter((i) => !claimed.has(i))) {
        const label = `gallery item ${show(item.asset.name)} in section ${show(section.title)}`;
        ctx.change('-', `remove ${label}`);
        ctx.removals.push([
          `remove ${label}`,
          async () => {
            await must(api.DELETE('/api/v1/estates/{estateId}/gallery/items/{itemId}', { params: { path: { ...estate(), itemId: item.id } } }));
          },
        ]);
      }
    },
    create: async (d) =>
      (
        await must(
          api.POST('/api/v1/estates/{estateId}/gallery/sections', {
            params: { path: estate() },
            body: { title: d.title, ...(d.description === undefined ? {} : { description: d.description }) },
          }),
        )
      ).id,
    update: async (id, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/gallery/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } }, body }));
    },
    remove: async (id) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/gallery/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } } }));
    },
    readOrder: async () => (await read()).sections.map((s) => s.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/gallery/sections/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (section, sectionId) => {
      const current = doc?.sections.find((s) => s.title === section.title);
      items(`in section ${show(section.title)}`, `items of gallery section ${show(section.title)}`, section.items ?? [], current?.items ?? [], sectionId);
    },
  });
  items('ungrouped', 'ungrouped gallery items', gallery.items ?? [], doc?.items ?? [], () => null);
}
