import { sql } from 'kysely';
import type { Queryable } from '../../../db/client.js';
import { q } from '../../../db/query.js';

export type DashboardRole = 'admin' | 'editor' | 'viewer';

/** The spec's membership role follows the dashboard role: admin for admin, member otherwise. */
const specRole = (role: DashboardRole) => (role === 'admin' ? 'admin' : 'member');

const MEMBER_COLUMNS = ['m.id', 'm.userId', 'm.dashboardRole as role', 'm.createdAt', 'u.email', 'u.firstName', 'u.lastName'] as const;

/** SQL of the dashboard's people: users' passwords, memberships, invitations, sessions, sign-in failures. */
export const peopleRepository = {
  findUserByEmail(db: Queryable, email: string) {
    return q(db)
      .selectFrom('users')
      .select(['id', 'email', 'firstName', 'lastName', 'passwordHash'])
      .where(sql<string>`lower(btrim(email))`, '=', email.trim().toLowerCase())
      .executeTakeFirst();
  },

  getUser(db: Queryable, userId: string) {
    return q(db).selectFrom('users').select(['id', 'email', 'firstName', 'lastName', 'passwordHash']).where('id', '=', userId).executeTakeFirst();
  },

  insertUser(db: Queryable, user: { id: string; email: string; firstName: string; lastName: string; passwordHash: string }) {
    return q(db)
      .insertInto('users')
      .values({ ...user, isRegistered: true })
      .execute();
  },

  setAccount(db: Queryable, userId: string, fields: { firstName?: string; lastName?: string; passwordHash?: string }) {
    return q(db)
      .updateTable('users')
      .set({ ...fields, ...(fields.passwordHash ? { isRegistered: true } : {}) })
      .where('id', '=', userId)
      .execute();
  },

  /** The organizations a user belongs to, with the role in each, by name. */
  membershipsOf(db: Queryable, userId: string) {
    return q(db)
      .selectFrom('organizationMemberships as m')
      .innerJoin('organizations as o', 'o.id', 'm.organizationId')
      .select(['m.organizationId', 'o.name as organizationName', 'm.dashboardRole as role'])
      .where('m.userId', '=', userId)
      .orderBy('o.name')
      .orderBy('o.id')
      .execute();
  },

  listMembers(db: Queryable, organizationId: string) {
    return q(db)
      .selectFrom('organizationMemberships as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .select(MEMBER_COLUMNS)
      .where('m.organizationId', '=', organizationId)
      .orderBy('u.email')
      .execute();
  },

  /** The membership locked for a change of role or a removal (FOR UPDATE: the admin count stays true). */
  lockMember(db: Queryable, organizationId: string, membershipId: string) {
    return q(db)
      .selectFrom('organizationMemberships')
      .select(['id', 'userId', 'dashboardRole as role'])
      .where('organizationId', '=', organizationId)
      .where('id', '=', membershipId)
      .forUpdate()
      .executeTakeFirst();
  },

  /** The organization's admins, locked: two admins demoting each other at once cannot leave none. */
  async lockAdmins(db: Queryable, organizationId: string): Promise<string[]> {
    const rows = await q(db)
      .selectFrom('organizationMemberships')
      .select('id')
      .where('organizationId', '=', organizationId)
      .where('dashboardRole', '=', 'admin')
      .forUpdate()
      .execute();
    return rows.map((r) => r.id);
  },

  setRole(db: Queryable, organizationId: string, membershipId: string, role: DashboardRole) {
    return q(db)
      .updateTable('organizationMemberships')
      .set({ dashboardRole: role, role: specRole(role) })
      .where('organizationId', '=', organizationId)
      .where('id', '=', membershipId)
      .execute();
  },

  removeMember(db: Queryable, organizationId: string, membershipId: string) {
    return q(db).deleteFrom('organizationMemberships').where('organizationId', '=', organizationId).where('id', '=', membershipId).execute();
  },

  /** Adds the membership, or sets its role when the user is already a member. */
  upsertMember(db: Queryable, membership: { id: string; organizationId: string; userId: string; role: DashboardRole }) {
    return q(db)
      .insertInto('organizationMemberships')
      .values({
        id: membership.id,
        organizationId: membership.organizationId,
        userId: membership.userId,
        dashboardRole: membership.role,
        role: specRole(membership.role),
      })
      .onConflict((oc) => oc.columns(['organizationId', 'userId']).doUpdateSet({ dashboardRole: membership.role, role: specRole(membership.role) }))
      .execute();
  },

  insertInvitation(
    db: Queryable,
    invitation: { id: string; organizationId: string; email: string; role: DashboardRole; tokenHash: string; invitedBy: string | null; expiresAt: string },
  ) {
    return q(db).insertInto('dashboardInvitations').values(invitation).returning(['id', 'expiresAt']).executeTakeFirstOrThrow();
  },

  /** An invitation that may still be used: not accepted, not revoked, not expired. */
  findOpenInvitation(db: Queryable, tokenHash: string) {
    return q(db)
      .selectFrom('dashboardInvitations as i')
      .innerJoin('organizations as o', 'o.id', 'i.organizationId')
      .select(['i.id', 'i.organizationId', 'o.name as organizationName', 'i.email', 'i.role'])
      .where('i.tokenHash', '=', tokenHash)
      .where('i.acceptedAt', 'is', null)
      .where('i.revokedAt', 'is', null)
      .where('i.expiresAt', '>', sql<string>`now()`)
      .executeTakeFirst();
  },

  /** Marks the invitation used; false when another request used it first. */
  async acceptInvitation(db: Queryable, id: string): Promise<boolean> {
    const rows = await q(db)
      .updateTable('dashboardInvitations')
      .set({ acceptedAt: sql<string>`now()` })
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .returning('id')
      .execute();
    return rows.length === 1;
  },

  listOpenInvitations(db: Queryable, organizationId: string) {
    return q(db)
      .selectFrom('dashboardInvitations')
      .select(['id', 'email', 'role', 'createdAt', 'expiresAt'])
      .where('organizationId', '=', organizationId)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', sql<string>`now()`)
      .orderBy('createdAt', 'desc')
      .execute();
  },

  async revokeInvitation(db: Queryable, organizationId: string, id: string): Promise<boolean> {
    const rows = await q(db)
      .updateTable('dashboardInvitations')
      .set({ revokedAt: sql<string>`now()` })
      .where('organizationId', '=', organizationId)
      .where('id', '=', id)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .returning('id')
      .execute();
    return rows.length === 1;
  },

  insertSession(db: Queryable, session: { id: string; userId: string; tokenHash: string; expiresAt: string }) {
    return q(db).insertInto('dashboardSessions').values(session).execute();
  },

  /** A live session: within its absolute end and used within the idle limit. */
  findSession(db: Queryable, tokenHash: string, idleSeconds: number) {
    return q(db)
      .selectFrom('dashboardSessions as s')
      .innerJoin('users as u', 'u.id', 's.userId')
      .select(['s.id', 's.userId', 's.lastSeenAt', 'u.email', 'u.firstName', 'u.lastName'])
      .where('s.tokenHash', '=', tokenHash)
      .where('s.expiresAt', '>', sql<string>`now()`)
      .where('s.lastSeenAt', '>', sql<string>`now() - make_interval(secs => ${idleSeconds})`)
      .executeTakeFirst();
  },

  touchSession(db: Queryable, id: string) {
    return q(db).updateTable('dashboardSessions').set({ lastSeenAt: sql<string>`now()` }).where('id', '=', id).execute();
  },

  deleteSession(db: Queryable, id: string) {
    return q(db).deleteFrom('dashboardSessions').where('id', '=', id).execute();
  },

  deleteSessionsOf(db: Queryable, userId: string) {
    return q(db).deleteFrom('dashboardSessions').where('userId', '=', userId).execute();
  },

  async countFailures(db: Queryable, subjects: string[], windowSeconds: number): Promise<Map<string, number>> {
    const rows = await q(db)
      .selectFrom('dashboardSignInFailures')
      .select(['subject', (eb) => eb.fn.countAll<number>().as('count')])
      .where('subject', 'in', subjects)
      .where('createdAt', '>', sql<string>`now() - make_interval(secs => ${windowSeconds})`)
      .groupBy('subject')
      .execute();
    return new Map(rows.map((r) => [r.subject, Number(r.count)]));
  },

  recordFailure(db: Queryable, subjects: string[]) {
    return q(db)
      .insertInto('dashboardSignInFailures')
      .values(subjects.map((subject) => ({ subject })))
      .execute();
  },

  /** Failures older than the window count for nothing: dropped now and then. */
  pruneFailures(db: Queryable, windowSeconds: number) {
    return q(db).deleteFrom('dashboardSignInFailures').where('createdAt', '<', sql<string>`now() - make_interval(secs => ${windowSeconds})`).execute();
  },
};
