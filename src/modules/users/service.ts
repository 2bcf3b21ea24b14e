import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { registerUniqueMessage } from '../../db/errors.js';
import { notFound } from '../../errors.js';
import { isUuid, iso, newId } from '../../ids.js';
import { organizationsRepository } from '../organizations/repository.js';
import { type MembershipRow, type UserRow, usersRepository as repo } from './repository.js';
import type { CreateUserBody } from './schemas.js';

registerUniqueMessage('users_email_uq', 'A user with this email already exists');

export interface Membership {
  id: string;
  userId: string;
  organizationId: string;
  organization: { id: string; name: string; featureFlags: string[] };
  role: string;
  createdAt: string;
}

export interface User {
  id: string;
  firstName: string | null;
  lastName: string | null;
  avatarUrl: string | null;
  jobTitle: string | null;
  description: string | null;
  email: string;
  role: string;
  createdAt: string;
  isRegistered: boolean;
  organizationMemberships: Membership[];
}

const toMembership = (m: MembershipRow): Membership => ({
  id: m.id,
  userId: m.user_id,
  organizationId: m.organization_id,
  organization: { id: m.organization_id, name: m.organization_name, featureFlags: m.organization_feature_flags },
  role: m.role,
  createdAt: iso(m.created_at)!,
});

const toUser = (u: UserRow, memberships: MembershipRow[]): User => ({
  id: u.id,
  firstName: u.first_name,
  lastName: u.last_name,
  avatarUrl: u.avatar_url,
  jobTitle: u.job_title,
  description: u.description,
  email: u.email,
  role: u.role,
  createdAt: iso(u.created_at)!,
  isRegistered: u.is_registered,
  organizationMemberships: memberships.filter((m) => m.user_id === u.id).map(toMembership),
});

/**
 * Members of one organization by id, each with its memberships in that organization only: two
 * queries for any number of users, so a page of inquiries never loads its referral users one by one.
 */
export async function loadMembers(db: Queryable, organizationId: string, userIds: string[]): Promise<Map<string, User>> {
  const ids = [...new Set(userIds)];
  const [users, memberships] = await Promise.all([repo.listMembers(db, organizationId, ids), repo.listMemberships(db, organizationId, ids)]);
  return new Map(users.map((u) => [u.id, toUser(u, memberships)]));
}

export class UsersService {
  constructor(private readonly db: Database) {}

  async create(organizationId: string, input: Static<typeof CreateUserBody>): Promise<User> {
    if (!isUuid(organizationId) || !(await organizationsRepository.get(this.db, organizationId))) throw notFound('Organization', organizationId);
    const role = input.role ?? 'member';
    const id = newId();
    await this.db.transaction((tx) =>
      repo.insert(
        tx,
        organizationId,
        {
          id,
          email: input.email.trim(),
          firstName: input.firstName?.trim() || null,
          lastName: input.lastName?.trim() || null,
          avatarUrl: input.avatarUrl ?? null,
          jobTitle: input.jobTitle?.trim() || null,
          description: input.description ?? null,
          role,
          isRegistered: input.isRegistered ?? false,
        },
        newId(),
      ),
    );
    const user = (await loadMembers(this.db, organizationId, [id])).get(id);
    return user!;
  }

  isMember(organizationId: string, userId: string): Promise<boolean> {
    return repo.isMember(this.db, organizationId, userId);
  }
}
