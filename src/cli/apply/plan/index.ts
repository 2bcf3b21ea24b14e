/**
 * The plan of `estate-publisher apply`: what differs between the project file and the service, as lines
 * a person reads (`+ create`, `~ update field: before -> after`, `- remove`) and as actions that make
 * the service match. Actions run in order: the estate, files, buildings and apartments (project.ts), the
 * navigator (navigators.ts, whose shapes point at those apartments), then each add-on; ids the service
 * assigns on the way are kept in `Ids` for the actions after them.
 */
import type { PublisherClient } from '../../../../clients/typescript/src/index.js';
import type { Manifest } from '../manifest.js';
import type { CurrentState, LocalAsset } from '../state.js';
import { type Action, type Change, Ids, type Plan, type PlanContext, type PlanOptions } from './core.js';
import { planDownloads } from './downloads.js';
import { planGallery } from './gallery.js';
import { planInvestment } from './investment.js';
import { planMap } from './map.js';
import { planNavigator } from './navigators.js';
import { planProject } from './project.js';

export { type Action, type Change, type Plan, type PlanOptions, countChanges, show } from './core.js';

export function planApply(client: PublisherClient, manifest: Manifest, state: CurrentState, local: Map<string, LocalAsset>, options: PlanOptions): Plan {
  const changes: Change[] = [];
  const actions: Action[] = [];
  const ids = new Ids();
  const ctx: PlanContext = {
    client,
    ids,
    state,
    options,
    change: (sign, what, details = []) => changes.push({ sign, what, details }),
    act: (label, run) => actions.push({ label, run: async () => (await run()) ?? undefined }),
    removals: [],
    orders: [],
    kept: [],
    /** The id a declared asset has now, or undefined while it is still to be uploaded. */
    assetIdNow: (name) => ids.assets.get(name),
    assetNameOf: (id) => [...local.values()].find((a) => ids.assets.get(a.name) === id)?.name ?? `asset ${id}`,
  };
  /** Runs one part's planner, then its removals and order checks (after its creates, updates and moves). */
  const part = <T>(declared: T | undefined, plan: (ctx: PlanContext, declared: T) => void) => {
    if (declared === undefined) return;
    plan(ctx, declared);
    for (const [label, run] of [...ctx.removals.splice(0), ...ctx.orders.splice(0)]) ctx.act(label, run);
  };
  planProject(ctx, manifest, local);
  part(manifest.navigator, (c, navigator) => planNavigator(c, manifest, navigator));
  const addons = manifest.addons ?? {};
  part(addons.investment, planInvestment);
  part(addons.gallery, planGallery);
  part(addons.map, planMap);
  part(addons.downloads, planDownloads);
  return { changes, actions, kept: ctx.kept };
}
