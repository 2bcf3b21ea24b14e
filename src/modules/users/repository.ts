import type { Queryable } from '../../db/client.js';

export interface UserRow {
  id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  avatar_url: string | null;
  job_title: string | null;
  description: string | null;
  role: string;
  is_registered: boolean;
  created_at: Date;
}

export interface MembershipRow {
  id: string;
  user_id: string;
  organization_id: string;
  role: string;
  created_at: Date;
  organization_name: string;
  organization_feature_flags: string[];
}

export interface NewUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  avatarUrl: string | null;
  jobTitle: string | null;
  description: string | null;
  role: string;
  isRegistered: boolean;
}

const MEMBERSHIP_SELECT = `SELECT m.id, m.user_id, m.organization_id, m.role, m.created_at,
         o.name AS organization_name, o.feature_flags AS organization_feature_flags
  FROM organization_memberships m JOIN organizations o ON o.id = m.organization_id`;

export const usersRepository = {
  async insert(db: Queryable, organizationId: string, user: NewUser, membershipId: string): Promise<UserRow> {
    const rows = await db.query<UserRow>(
      `INSERT INTO users (id, email, first_name, last_name, avatar_url, job_title, description, role, is_registered)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING *`,
      [user.id, user.email, user.firstName, user.lastName, user.avatarUrl, user.jobTitle, user.description, user.role, user.isRegistered],
    );
    await db.query('INSERT INTO organization_memberships (id, organization_id, user_id, role) VALUES ($1, $2, $3, $4)', [
      membershipId,
      organizationId,
      user.id,
      user.role,
    ]);
    return rows[0]!;
  },

  /** Users that are members of the organization, among the given ids (one query for a page). */
  async listMembers(db: Queryable, organizationId: string, userIds: string[]): Promise<UserRow[]> {
    if (userIds.length === 0) return [];
    return db.query<UserRow>(
      `SELECT u.* FROM users u
       WHERE u.id = ANY($2::uuid[])
         AND EXISTS (SELECT 1 FROM organization_memberships m WHERE m.organization_id = $1 AND m.user_id = u.id)`,
      [organizationId, userIds],
    );
  },

  /** Memberships of the given users in this organization only: another organization's stay invisible. */
  async listMemberships(db: Queryable, organizationId: string, userIds: string[]): Promise<MembershipRow[]> {
    if (userIds.length === 0) return [];
    return db.query<MembershipRow>(`${MEMBERSHIP_SELECT} WHERE m.organization_id = $1 AND m.user_id = ANY($2::uuid[]) ORDER BY m.created_at, m.id`, [
      organizationId,
      userIds,
    ]);
  },

  async isMember(db: Queryable, organizationId: string, userId: string): Promise<boolean> {
    const rows = await db.query('SELECT 1 FROM organization_memberships WHERE organization_id = $1 AND user_id = $2', [organizationId, userId]);
    return rows.length > 0;
  },
};
