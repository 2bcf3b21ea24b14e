import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Queryable } from '../../db/client.js';
import { json, q } from '../../db/query.js';
import type { EstatePages } from '../../db/schema.js';
import type { PageContact } from './schemas.js';

export type PageRow = Selectable<EstatePages>;

/** The settings of a page never written: off, with the defaults of docs/decisions.md. */
export const PAGE_DEFAULTS = {
  enabled: false,
  navigatorId: null,
  showApartments: true,
  showInquiryForm: true,
  embedOrigins: [] as string[],
  locale: 'en-US',
  contact: null as PageContact | null,
  privacyPolicyUrl: null as string | null,
};

export interface PageFields {
  enabled: boolean;
  navigatorId: string | null;
  showApartments: boolean;
  showInquiryForm: boolean;
  embedOrigins: string[];
  locale: string;
  contact: PageContact | null;
  privacyPolicyUrl: string | null;
}

/** estate_pages (migration 0015): every statement is scoped by organization except the public lookup by estate. */
export const pagesRepository = {
  get(db: Queryable, organizationId: string, estateId: string): Promise<PageRow | undefined> {
    return q(db).selectFrom('estatePages').selectAll().where('organizationId', '=', organizationId).where('estateId', '=', estateId).executeTakeFirst();
  },

  /** The public page's lookup: the estate (already resolved from its slug) names its owner. */
  ofEstate(db: Queryable, estateId: string): Promise<PageRow | undefined> {
    return q(db).selectFrom('estatePages').selectAll().where('estateId', '=', estateId).executeTakeFirst();
  },

  /**
   * The one lookup not scoped by organization (as findAddonState): a public read names only the
   * estate, so this resolves its owner and slug; every statement after it is scoped by that owner.
   */
  estateRef(db: Queryable, estateId: string): Promise<{ id: string; organizationId: string; slug: string } | undefined> {
    return q(db).selectFrom('estates').select(['id', 'organizationId', 'slug']).where('id', '=', estateId).executeTakeFirst();
  },

  /** Moves the estate's preview version on (migration 0017): every link signed under an earlier one stops verifying. */
  async revokePreviews(db: Queryable, organizationId: string, estateId: string): Promise<void> {
    await q(db)
      .updateTable('estatePages')
      .set((eb) => ({ previewVersion: eb('previewVersion', '+', 1) }))
      .where('organizationId', '=', organizationId)
      .where('estateId', '=', estateId)
      .execute();
  },

  /** Writes every field (the caller merged them over the stored row), making the row and its preview secret on first use. */
  upsert(db: Queryable, organizationId: string, estateId: string, fields: PageFields): Promise<PageRow> {
    const values = { ...fields, embedOrigins: json(fields.embedOrigins), contact: fields.contact === null ? null : json(fields.contact) };
    return q(db)
      .insertInto('estatePages')
      .values({ organizationId, estateId, previewSecret: randomBytes(32), ...values })
      .onConflict((oc) =>
        oc.column('estateId').doUpdateSet((eb) => ({ ...values, version: eb('estatePages.version', '+', 1), updatedAt: new Date().toISOString() })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
  },
};
