import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import type { ChangesQuery } from '../../http/schemas.js';
import { isUuid, newId } from '../../ids.js';
import { requireApartment } from '../apartments/service.js';
import type { User } from '../users/schemas.js';
import { loadMembers } from '../users/service.js';
import { changesOf, emitEvent } from '../webhooks/events.js';
import { type InquiryFilter, type InquiryRow, inquiriesRepository as repo } from './repository.js';
import type { ApartmentInquiriesQuery, Inquiry, ListInquiriesQuery, SubmitInquiryBody, UpdateInquiryBody } from './schemas.js';

/** A page of inquiries and the window it covers (X-Total-Count and Link). */
export interface InquiryPage {
  count: number;
  items: Inquiry[];
  offset: number;
  limit: number;
}

/** The API shape of a stored inquiry: without the organization, with its referral user embedded. */
const toInquiry = ({ organizationId: _, changeXid: __, ...row }: InquiryRow, users: Map<string, User>): Inquiry => ({
  ...row,
  referralUser: (row.referralUserId && users.get(row.referralUserId)) || null,
});

const blankToNull = (value: string | null | undefined) => (value?.trim() ? value.trim() : null);

export class InquiriesService {
  constructor(private readonly db: Database) {}

  /** The public submission: the estate alone decides the organization; the answer is only a receipt. */
  async submit(estateId: string, input: Static<typeof SubmitInquiryBody>): Promise<{ id: string; status: string; createdAt: string }> {
    const organizationId = isUuid(estateId) ? await repo.estateOwner(this.db, estateId) : undefined;
    if (!organizationId) throw notFound('Estate', estateId);

    const apartmentIds = [...new Set((input.apartmentIds ?? []).map((id) => id.toLowerCase()))];
    const problems: string[] = [];
    const valid = apartmentIds.filter(isUuid);
    const found = new Map((await repo.apartmentsOfEstate(this.db, organizationId, estateId, valid)).map((a) => [a.id, a.status]));
    const unknown = apartmentIds.filter((id) => !found.has(id));
    if (unknown.length > 0) problems.push(`apartmentIds must be apartments of this estate (unknown: ${unknown.slice(0, 10).join(', ')})`);
    // A HIDDEN apartment is not on the estate's page: nobody can ask about it there, so nobody can here.
    const hidden = apartmentIds.filter((id) => found.get(id) === 'HIDDEN');
    if (hidden.length > 0) problems.push(`apartmentIds must be apartments the estate's page shows (hidden: ${hidden.slice(0, 10).join(', ')})`);
    const referralUserId = input.referralUserId ? input.referralUserId.toLowerCase() : null;
    if (referralUserId && !(isUuid(referralUserId) && (await loadMembers(this.db, organizationId, [referralUserId])).has(referralUserId))) {
      problems.push('referralUserId must be a member of the estate organization');
    }
    if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join('; ')}`);

    const row = await this.db.transaction(async (tx) => {
      const inserted = await repo.insert(tx, {
        id: newId(),
        organizationId,
        estateId: estateId.toLowerCase(),
        name: input.name.trim(),
        email: input.email.trim(),
        phoneNumber: blankToNull(input.phoneNumber),
        info: blankToNull(input.info),
        apartmentIds,
        referralUserId,
      });
      const members = await loadMembers(tx, organizationId, referralUserId ? [referralUserId] : []);
      await emitEvent(tx, organizationId, 'inquiry.created', toInquiry(inserted, members));
      return inserted;
    });
    return { id: row.id, status: row.status, createdAt: row.createdAt };
  }

  async list(organizationId: string, query: Static<typeof ListInquiriesQuery>): Promise<InquiryPage> {
    // A filter naming nothing of this organization matches nothing, like any unknown id.
    if (query.estateId !== undefined && !isUuid(query.estateId)) return { count: 0, items: [], offset: query.offset ?? 0, limit: query.limit ?? 50 };
    return this.page(organizationId, { estateId: query.estateId }, query);
  }

  async listForApartment(organizationId: string, apartmentId: string, query: Static<typeof ApartmentInquiriesQuery>): Promise<InquiryPage> {
    const apartment = await requireApartment(this.db, organizationId, apartmentId);
    return this.page(organizationId, { apartmentId: apartment.id }, query);
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateInquiryBody>): Promise<Inquiry> {
    return this.db.transaction(async (tx) => {
      const current = isUuid(id) ? await repo.get(tx, organizationId, id) : undefined;
      if (!current) throw notFound('Inquiry', id);
      const row = input.status !== undefined ? await repo.setStatus(tx, organizationId, id, input.status) : current;
      if (!row) throw notFound('Inquiry', id);
      const inquiry = toInquiry(row, await loadMembers(tx, organizationId, row.referralUserId ? [row.referralUserId] : []));
      await emitEvent(tx, organizationId, 'inquiry.updated', inquiry, changesOf(current, row));
      return inquiry;
    });
  }

  /** GET /inquiry/changes: one page of the organization's change feed (new inquiries, status changes). */
  async changes(organizationId: string, query: Static<typeof ChangesQuery>): Promise<{ items: Inquiry[]; nextCursor: string }> {
    const page = await repo.changes(this.db, organizationId, query.cursor, query.limit ?? 500);
    return { items: await this.withMembers(organizationId, page.rows), nextCursor: page.nextCursor };
  }

  private async page(organizationId: string, base: InquiryFilter, query: Static<typeof ApartmentInquiriesQuery>): Promise<InquiryPage> {
    const filter: InquiryFilter = { ...base, status: query.status?.split(','), q: query.q };
    const offset = query.offset ?? 0;
    const limit = query.limit ?? 50;
    const [count, rows] = await Promise.all([
      repo.count(this.db, organizationId, filter),
      repo.list(this.db, organizationId, filter, query.sort ?? '-createdAt', offset, limit),
    ]);
    return { count: Number(count), items: await this.withMembers(organizationId, rows), offset, limit };
  }

  /** The inquiries with their referral users, read in one query. */
  private async withMembers(organizationId: string, rows: InquiryRow[]): Promise<Inquiry[]> {
    const users = await loadMembers(
      this.db,
      organizationId,
      rows.flatMap((r) => (r.referralUserId ? [r.referralUserId] : [])),
    );
    return rows.map((r) => toInquiry(r, users));
  }
}
