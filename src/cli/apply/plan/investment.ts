/** The investment add-on: its sections (by title) and their files (by asset). */
import { must } from '../../../../clients/typescript/src/index.js';
import { sanitizeSectionHtml } from '../../../modules/addons/investment/sanitize.js';
import type { Manifest } from '../manifest.js';
import { type PlanContext, fieldChanges, match, planContainer, planEnabled, show } from './core.js';

type Investment = NonNullable<NonNullable<Manifest['addons']>['investment']>;

export function planInvestment(ctx: PlanContext, investment: Investment): void {
  const { api } = ctx.client;
  const estate = () => ({ estateId: ctx.ids.estateId() });
  const doc = ctx.state.investment;
  const read = () => must(api.GET('/api/v1/estates/{estateId}/investment', { params: { path: estate() } }));
  planEnabled(ctx, 'investment', investment.enabled, doc?.enabled, async (enabled) => {
    await must(api.PUT('/api/v1/estates/{estateId}/investment', { params: { path: estate() }, body: { enabled } }));
  });
  planContainer(ctx, {
    what: 'investment section',
    container: 'investment sections',
    current: doc?.sections ?? [],
    declared: investment.sections ?? [],
    keyOf: (s) => s.title,
    keyWanted: (d) => d.title,
    labelOf: (d) => show(d.title),
    short: (d) => show(d.title),
    labelOfCurrent: (s) => show(s.title),
    diff: (d, s) => fieldChanges({ description: d.description === undefined ? undefined : sanitizeSectionHtml(d.description) }, s),
    create: async (d) =>
      (
        await must(
          api.POST('/api/v1/estates/{estateId}/investment/sections', { params: { path: estate() }, body: { title: d.title, description: d.description } }),
        )
      ).id,
    update: async (id, body) => {
      await must(api.PATCH('/api/v1/estates/{estateId}/investment/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } }, body }));
    },
    remove: async (id) => {
      await must(api.DELETE('/api/v1/estates/{estateId}/investment/sections/{sectionId}', { params: { path: { ...estate(), sectionId: id } } }));
    },
    readOrder: async () => (await read()).sections.map((s) => s.id),
    order: async (orderedIds) => {
      await must(api.PUT('/api/v1/estates/{estateId}/investment/sections/order', { params: { path: estate() }, body: { orderedIds } }));
    },
    after: (section, sectionId) => {
      const current = doc?.sections.find((s) => s.title === section.title);
      const at = () => ({ ...estate(), sectionId: sectionId() });
      const where = `in section ${show(section.title)}`;
      planContainer(ctx, {
        what: 'investment file',
        container: `files of investment section ${show(section.title)}`,
        current: current?.files ?? [],
        declared: section.files ?? [],
        keyOf: (f) => f.assetId,
        keyWanted: (d) => ctx.assetIdNow(d.asset),
        labelOf: (d) => `${d.asset} ${where}`,
        short: (d) => d.asset,
        labelOfCurrent: (f) => `${show(f.label)} ${where}`,
        diff: (d, f) => fieldChanges({ label: d.label }, f),
        create: async (d) =>
          (
            await must(
              api.POST('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files', {
                params: { path: at() },
                body: { assetId: ctx.ids.asset(d.asset), ...(d.label === undefined ? {} : { label: d.label }) },
              }),
            )
          ).id,
        update: async (fileId, body) => {
          await must(api.PATCH('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/{fileId}', { params: { path: { ...at(), fileId } }, body }));
        },
        remove: async (fileId) => {
          await must(api.DELETE('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/{fileId}', { params: { path: { ...at(), fileId } } }));
        },
        readOrder: async () => (await read()).sections.find((s) => s.id === sectionId())?.files.map((f) => f.id) ?? [],
        order: async (orderedIds) => {
          await must(api.PUT('/api/v1/estates/{estateId}/investment/sections/{sectionId}/files/order', { params: { path: at() }, body: { orderedIds } }));
        },
      });
    },
  });
}
