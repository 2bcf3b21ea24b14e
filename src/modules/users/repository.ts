import type { Insertable, Selectable } from 'kysely';
import { jsonBuildObject } from 'kysely/helpers/postgres';
import type { Queryable } from '../../db/client.js';
import { anyUuid, q } from '../../db/query.js';
import type { Users } from '../../db/schema.js';

/** A user as the API shows it: never the dashboard's password hash. */
export type UserRow = Omit<Selectable<Users>, 'passwordHash'>;
const USER_COLUMNS = ['id', 'email', 'firstName', 'lastName', 'avatarUrl', 'jobTitle', 'description', 'role', 'isRegistered', 'createdAt'] as const;

export const usersRepository = {
  async insert(db: Queryable, organizationId: string, user: Insertable<Users> & { role: string }, membershipId: string): Promise<UserRow> {
    const row = await q(db).insertInto('users').values(user).returning(USER_COLUMNS).executeTakeFirstOrThrow();
    await q(db).insertInto('organizationMemberships').values({ id: membershipId, organizationId, userId: user.id, role: user.role }).execute();
    return row;
  },

  /** Users that are members of the organization, among the given ids (one query for a page). */
  listMembers(db: Queryable, organizationId: string, userIds: string[]): Promise<UserRow[]> {
    if (userIds.length === 0) return Promise.resolve([]);
    return q(db)
      .selectFrom('users as u')
      .select(USER_COLUMNS.map((c) => `u.${c}` as const))
      .where('u.id', '=', anyUuid(userIds))
      .where(({ exists, selectFrom }) =>
        exists(selectFrom('organizationMemberships as m').select('m.id').where('m.organizationId', '=', organizationId).whereRef('m.userId', '=', 'u.id')),
      )
      .execute();
  },

  /** Memberships of the given users in this organization only, with the organization embedded: another organization's stay invisible. */
  listMemberships(db: Queryable, organizationId: string, userIds: string[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return q(db)
      .selectFrom('organizationMemberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organizationId')
      .select((eb) => [
        'm.id',
        'm.userId',
        'm.organizationId',
        jsonBuildObject({ id: eb.ref('o.id'), name: eb.ref('o.name'), featureFlags: eb.ref('o.featureFlags') }).as('organization'),
        'm.role',
        'm.createdAt',
      ])
      .where('m.organizationId', '=', organizationId)
      .where('m.userId', '=', anyUuid(userIds))
      .orderBy('m.createdAt')
      .orderBy('m.id')
      .execute();
  },

  async isMember(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
    const row = await q(db)
      .selectFrom('organizationMemberships')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('userId', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  },
};
