import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { requireApartment } from '../apartments/service.js';
import type { User } from '../users/schemas.js';
import { loadMembers } from '../users/service.js';
import { type InquiryFilter, type InquiryRow, inquiriesRepository as repo } from './repository.js';
import type { Inquiry, SubmitInquiryBody, UpdateInquiryBody } from './schemas.js';

export interface InquiryPage {
  count: number;
  items: Inquiry[];
}

/** The API shape of a stored inquiry: without the organization, with its referral user embedded. */
const toInquiry = ({ organizationId: _, ...row }: InquiryRow, users: Map<string, User>): Inquiry => ({
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
    const found = new Set(await repo.apartmentsOfEstate(this.db, organizationId, estateId, valid));
    const unknown = apartmentIds.filter((id) => !found.has(id));
    if (unknown.length > 0) problems.push(`apartmentIds must be apartments of this estate (unknown: ${unknown.slice(0, 10).join(', ')})`);
    const referralUserId = input.referralUserId ? input.referralUserId.toLowerCase() : null;
    if (referralUserId && !(isUuid(referralUserId) && (await loadMembers(this.db, organizationId, [referralUserId])).has(referralUserId))) {
      problems.push('referralUserId must be a member of the estate organization');
    }
    if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join('; ')}`);

    const row = await repo.insert(this.db, {
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
    return { id: row.id, status: row.status, createdAt: row.createdAt };
  }

  async list(organizationId: string, query: { estateId?: string | undefined; offset?: number | undefined; limit?: number | undefined }): Promise<InquiryPage> {
    // A filter naming nothing of this organization matches nothing, like any unknown id.
    if (query.estateId !== undefined && !isUuid(query.estateId)) return { count: 0, items: [] };
    return this.page(organizationId, { estateId: query.estateId }, query.offset ?? 0, query.limit ?? 50);
  }

  async listForApartment(
    organizationId: string,
    apartmentId: string,
    query: { offset?: number | undefined; limit?: number | undefined },
  ): Promise<InquiryPage> {
    const apartment = await requireApartment(this.db, organizationId, apartmentId);
    return this.page(organizationId, { apartmentId: apartment.id }, query.offset ?? 0, query.limit ?? 50);
  }

  async update(organizationId: string, id: string, input: Static<typeof UpdateInquiryBody>): Promise<Inquiry> {
    let row = isUuid(id) ? await repo.get(this.db, organizationId, id) : undefined;
    if (row && input.status !== undefined) row = await repo.setStatus(this.db, organizationId, id, input.status);
    if (!row) throw notFound('Inquiry', id);
    return toInquiry(row, await loadMembers(this.db, organizationId, row.referralUserId ? [row.referralUserId] : []));
  }

  private async page(organizationId: string, filter: InquiryFilter, offset: number, limit: number): Promise<InquiryPage> {
    const [count, rows] = await Promise.all([repo.count(this.db, organizationId, filter), repo.list(this.db, organizationId, filter, offset, limit)]);
    const users = await loadMembers(
      this.db,
      organizationId,
      rows.flatMap((r) => (r.referralUserId ? [r.referralUserId] : [])),
    );
    return { count, items: rows.map((r) => toInquiry(r, users)) };
  }
}
