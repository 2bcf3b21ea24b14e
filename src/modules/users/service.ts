import type { Static } from '@sinclair/typebox';
import type { Database, Queryable } from '../../db/client.js';
import { registerUniqueMessage } from '../../db/errors.js';
import { notFound } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { organizationsRepository } from '../organizations/repository.js';
import { type UserRow, usersRepository as repo } from './repository.js';
import type { CreateUserBody, User } from './schemas.js';

registerUniqueMessage('users_email_uq', 'A user with this email already exists');

type Membership = Awaited<ReturnType<typeof repo.listMemberships>>[number];

/** The API shape of a member: without the organization column, with its memberships in this organization. */
const toUser = (u: UserRow, memberships: Membership[]): User => ({ ...u, organizationMemberships: memberships.filter((m) => m.userId === u.id) });

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
