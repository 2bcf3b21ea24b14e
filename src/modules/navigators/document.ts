import type { NavigatorRow, NavigatorWithImages } from './repository.js';
import { defaultNavigatorOptions } from './repository.js';
import type { Navigator, NavigatorOptions } from './schemas.js';

/**
 * The stored options over the defaults: every option present (a navigator stored before an option
 * existed reads with its default), the theme as stored.
 */
export function optionsOf(row: Pick<NavigatorRow, 'options'>): NavigatorOptions {
  const stored = (row.options ?? {}) as Partial<NavigatorOptions>;
  return { ...defaultNavigatorOptions(''), ...stored, customTheme: { ...(stored.customTheme ?? {}) } };
}

/** The API shape of one navigator, without its nested ones (the caller adds them). */
export function toNavigator(row: NavigatorRow, images: NavigatorWithImages['images']): Navigator {
  return {
    id: row.id,
    estateId: row.estateId,
    parentId: row.parentId,
    referenceId: row.referenceId,
    referenceType: row.referenceType,
    type: row.type,
    seoTitle: row.seoTitle,
    seoDescription: row.seoDescription,
    seoOgImage: row.seoOgImage,
    images,
    createdAt: row.createdAt,
    options: optionsOf(row),
    nested: [],
    isPreview: row.isPreview,
  };
}

/** An estate's navigators as trees: each with its nested ones (oldest first), by id, and the roots. */
export function assemble(rows: NavigatorWithImages[]): { byId: Map<string, Navigator>; roots: Navigator[] } {
  const byId = new Map<string, Navigator>();
  for (const row of rows) byId.set(row.id, toNavigator(row, row.images));
  const roots: Navigator[] = [];
  for (const row of rows) {
    const navigator = byId.get(row.id)!;
    const parent = row.parentId === null ? undefined : byId.get(row.parentId);
    if (parent) parent.nested.push(navigator);
    else roots.push(navigator);
  }
  return { byId, roots };
}
