import type { Database } from '../../../db/client.js';
import { notFound, orNothing, unprocessable } from '../../../errors.js';
import { isUuid } from '../../../ids.js';
import { requireEstate } from '../../estates/service.js';
import type { NavigatorsService } from '../../navigators/service.js';
import { changesOf, emitEvent } from '../../webhooks/events.js';
import { PREVIEW_TTL_MS, signPreview } from '../preview.js';
import { PAGE_DEFAULTS, type PageFields, type PageRow, pagesRepository as repo } from '../repository.js';
import type { PageContact, PageSettings, PutPageBody } from '../schemas.js';
import { checkPageInput } from './settings-input.js';

/** A page's settings as stored, or the defaults for an estate that has none. */
export const fieldsOf = (row: PageRow | undefined): PageFields =>
  row
    ? {
        enabled: row.enabled,
        navigatorId: row.navigatorId,
        showApartments: row.showApartments,
        showInquiryForm: row.showInquiryForm,
        embedOrigins: row.embedOrigins,
        locale: row.locale,
        contact: row.contact,
        privacyPolicyUrl: row.privacyPolicyUrl,
      }
    : { ...PAGE_DEFAULTS, embedOrigins: [] };

/** A contact block as stored: its lines trimmed, empty ones left out, null when nothing is left. */
function contactOf(input: PageContact | null): PageContact | null {
  if (!input) return null;
  const out = Object.fromEntries(
    Object.entries(input)
      .map(([k, v]) => [k, v?.trim()])
      .filter(([, v]) => v),
  ) as PageContact;
  return Object.keys(out).length > 0 ? out : null;
}

/** The page settings of an estate (issue 27): read, written, previewed. `url(slug)` is where its page lives. */
export class PageSettingsStore {
  constructor(
    private readonly db: Database,
    private readonly navigators: NavigatorsService,
    private readonly url: (slug: string) => string,
  ) {}

  /**
   * GET of the settings: the owner's key sees them as stored; anyone else sees them only while the page
   * is on (an estate's page that is off reads as the defaults, as an add-on that is off reads empty).
   */
  async settings(estateId: string, caller: string | undefined): Promise<{ settings: PageSettings; owner: boolean }> {
    const estate = isUuid(estateId) ? await repo.estateRef(this.db, estateId) : undefined;
    if (!estate) throw notFound('Estate', estateId);
    const row = await repo.ofEstate(this.db, estate.id);
    const owner = caller === estate.organizationId;
    const fields = row && (owner || row.enabled) ? fieldsOf(row) : fieldsOf(undefined);
    return { settings: { estateId: estate.id, ...fields, url: this.url(estate.slug) }, owner };
  }

  /** PUT: fields left out keep their value; navigatorId must be a navigator of the estate. */
  async put(organizationId: string, estateId: string, input: PutPageBody): Promise<PageSettings> {
    const checked = checkPageInput(input);
    // Checked before the transaction (the navigator read is not in it; on PGlite it would wait for it).
    // A navigator deleted meanwhile leaves navigatorId null (ON DELETE SET NULL): the estate's first.
    if (input.navigatorId) {
      const navigator = isUuid(input.navigatorId) ? await this.navigators.get(organizationId, input.navigatorId).catch(orNothing) : undefined;
      if (!navigator || navigator.estateId !== estateId.toLowerCase()) {
        if (!isUuid(estateId)) throw notFound('Estate', estateId);
        throw unprocessable(`Validation failed: navigatorId must be a navigator of estate ${estateId}`);
      }
    }
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      const current = fieldsOf(await repo.get(tx, organizationId, estate.id));
      const next: PageFields = {
        enabled: input.enabled ?? current.enabled,
        navigatorId: input.navigatorId === undefined ? current.navigatorId : (input.navigatorId?.toLowerCase() ?? null),
        showApartments: input.showApartments ?? current.showApartments,
        showInquiryForm: input.showInquiryForm ?? current.showInquiryForm,
        embedOrigins: checked.embedOrigins ?? current.embedOrigins,
        locale: checked.locale ?? current.locale,
        contact: input.contact === undefined ? current.contact : contactOf(input.contact),
        privacyPolicyUrl: input.privacyPolicyUrl === undefined ? current.privacyPolicyUrl : input.privacyPolicyUrl,
      };
      const row = await repo.upsert(tx, organizationId, estate.id, next);
      const settings = { estateId: estate.id, ...fieldsOf(row), url: this.url(estate.slug) };
      // What the page shows changed (on, off, sections, navigator, locale, who may frame it): a CDN purges
      // `estate-{estateId}`. A PUT that changes nothing emits nothing.
      await emitEvent(tx, organizationId, 'page.updated', settings, changesOf(current, fieldsOf(row)));
      return settings;
    });
  }

  /** A signed link that renders the page for PREVIEW_TTL_MS even while it is off. */
  async preview(organizationId: string, estateId: string): Promise<{ url: string; expiresAt: string }> {
    return this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      let row = await repo.get(tx, organizationId, estate.id);
      // The first preview of an estate never configured makes its row (off, defaults) and so its secret.
      row ??= await repo.upsert(tx, organizationId, estate.id, fieldsOf(undefined));
      const expires = Date.now() + PREVIEW_TTL_MS;
      return {
        url: `${this.url(estate.slug)}?preview=${signPreview(row.previewSecret, estate.id, expires, row.previewVersion)}`,
        expiresAt: new Date(expires).toISOString(),
      };
    });
  }

  /**
   * Ends every preview link of the estate issued so far: its preview version moves on, and links are
   * signed with the version they were issued under. An estate never previewed has no links (no row).
   */
  async revokePreviews(organizationId: string, estateId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const estate = await requireEstate(tx, organizationId, estateId, true);
      await repo.revokePreviews(tx, organizationId, estate.id);
    });
  }
}
