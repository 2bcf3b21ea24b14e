import type { FastifyPluginAsync } from 'fastify';
import type { DashboardRole } from '../people/service.js';
import { type OrgContext, hasRole } from '../session.js';

/**
 * One screen of an organization's dashboard: its routes (under /dashboard/o/:orgId/<path>), its place in
 * the navigation and the role that sees it there. A new screen (assets, add-ons, navigators, the page,
 * API keys, webhooks, domains) is one more entry in SCREENS (screens/index.ts).
 */
export interface Screen {
  id: string;
  label: string;
  /** Under the organization's base, e.g. `estates`. */
  path: string;
  /** Least role that sees it in the navigation (its routes check their own). */
  minimum: DashboardRole;
  routes: FastifyPluginAsync;
}

const screens: Screen[] = [];

export function registerScreen(screen: Screen): void {
  screens.push(screen);
}

export const allScreens = (): readonly Screen[] => screens;

export function navigation(ctx: OrgContext): Array<{ id: string; label: string; href: string }> {
  return screens.filter((s) => hasRole(ctx, s.minimum)).map((s) => ({ id: s.id, label: s.label, href: `${ctx.base}/${s.path}` }));
}
