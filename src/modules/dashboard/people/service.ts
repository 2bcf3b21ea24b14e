import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../../config.js';
import type { Database } from '../../../db/client.js';
import { AppError } from '../../../errors.js';
import { isUuid, newId } from '../../../ids.js';
import { organizationsRepository } from '../../organizations/repository.js';
import { hashPassword, inSignInSlot, passwordProblem, verifyPassword } from './passwords.js';
import { type DashboardRole, peopleRepository as repo } from './repository.js';

export const DASHBOARD_ROLES: readonly DashboardRole[] = ['admin', 'editor', 'viewer'];
export type { DashboardRole };

const DAY = 86_400;
export const INVITATION_SECONDS = 7 * DAY;
export const SESSION_IDLE_SECONDS = 7 * DAY;
export const SESSION_ABSOLUTE_SECONDS = 30 * DAY;
/** A session's last use is written at most this often (a read per request, not a write). */
const TOUCH_EVERY_MS = 60 * 60 * 1000;
export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_MAX_PER_ACCOUNT = 10;
export const SIGN_IN_MAX_PER_IP = 50;

/** The one answer to every failed sign-in (unknown e-mail, wrong password, no account yet). */
export const SIGN_IN_FAILED = 'The e-mail address or password is not right.';
/** The one answer to an invitation link that cannot be used (unknown, used, revoked, expired). */
export const INVITATION_UNUSABLE = 'This invitation link cannot be used: it has expired or has been used. Ask an admin of your organization for a new one.';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const secret = () => randomBytes(32).toString('base64url');

/** Form fields that break the rules, each with its message in the dashboard's words (422). */
export class FieldErrors extends AppError {
  constructor(readonly fields: Record<string, string>) {
    super(
      'unprocessable',
      Object.entries(fields)
        .map(([field, message]) => `${field}: ${message}`)
        .join(' '),
    );
  }
}

export interface SignedInUser {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
}

export interface Session {
  id: string;
  user: SignedInUser;
  /** The form token bound to this session: derived from its secret, so only its holder can know it. */
  csrf: string;
}

export interface Membership {
  organizationId: string;
  organizationName: string;
  role: DashboardRole;
}

/** The CSRF token of a session secret (the cookie's value, which pages never see: HttpOnly). */
export const csrfOf = (token: string) => createHash('sha256').update(`csrf:${token}`).digest('base64url');

/** Users, memberships, invitations and sessions of the dashboard (docs/decisions.md, "The dashboard"). */
export class PeopleService {
  constructor(
    private readonly db: Database,
    private readonly config: Pick<Config, 'publicUrl'>,
  ) {}

  /** An invitation link for `email` to join the organization with `role`; the token is shown only here. */
  async invite(organizationId: string, input: { email: string; role: string }, invitedBy: string | null) {
    if (!isUuid(organizationId) || !(await organizationsRepository.get(this.db, organizationId))) {
      throw new AppError('notFound', `Organization with id ${organizationId} not found`);
    }
    const email = input.email.trim();
    const errors: Record<string, string> = {};
    if (!EMAIL.test(email) || email.length > 254) errors.email = 'Enter an e-mail address such as name@example.com.';
    if (!DASHBOARD_ROLES.includes(input.role as DashboardRole)) errors.role = 'Choose admin, editor or viewer.';
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
    const token = secret();
    const row = await repo.insertInvitation(this.db, {
      id: newId(),
      organizationId,
      email,
      role: input.role as DashboardRole,
      tokenHash: sha256(token),
      invitedBy,
      expiresAt: new Date(Date.now() + INVITATION_SECONDS * 1000).toISOString(),
    });
    return { id: row.id, url: `${this.config.publicUrl}/dashboard/invitations/${token}`, expiresAt: new Date(row.expiresAt).toISOString() };
  }

  /** What the invitation page shows, or null when the link cannot be used. */
  async invitation(token: string) {
    if (token.length > 100) return null;
    const found = await repo.findOpenInvitation(this.db, sha256(token));
    if (!found) return null;
    const user = await repo.findUserByEmail(this.db, found.email);
    return { ...found, hasAccount: Boolean(user?.passwordHash) };
  }

  /**
   * Uses the invitation: makes the account (or completes one the operator made by e-mail), adds the
   * membership and starts a session. Someone who already has an account confirms with their password.
   */
  async acceptInvitation(token: string, input: { firstName: string; lastName: string; password: string }): Promise<{ token: string; organizationId: string }> {
    const invitation = await this.invitation(token);
    if (!invitation) throw new AppError('notFound', INVITATION_UNUSABLE);
    const existing = await repo.findUserByEmail(this.db, invitation.email);
    let passwordHash: string | undefined;
    if (existing?.passwordHash) {
      // A guess of an account's password: counted and limited as a sign-in's is.
      const subject = [`account:${invitation.email.trim().toLowerCase()}`];
      const failures = (await repo.countFailures(this.db, subject, SIGN_IN_WINDOW_SECONDS)).get(subject[0]!) ?? 0;
      if (failures >= SIGN_IN_MAX_PER_ACCOUNT) throw tooManyFailures();
      if (!(await verifyPassword(existing.passwordHash, input.password))) {
        await repo.recordFailure(this.db, subject);
        throw new FieldErrors({ password: 'The password is not right.' });
      }
    } else {
      const errors: Record<string, string> = {};
      const firstName = input.firstName.trim();
      const lastName = input.lastName.trim();
      if (!firstName || firstName.length > 200) errors.firstName = 'Enter your first name (at most 200 characters).';
      if (!lastName || lastName.length > 200) errors.lastName = 'Enter your last name (at most 200 characters).';
      const problem = passwordProblem(input.password, invitation.email);
      if (problem) errors.password = problem;
      if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
      passwordHash = await hashPassword(input.password);
    }
    const userId = existing?.id ?? newId();
    const sessionToken = await this.db.transaction(async (tx) => {
      if (!(await repo.acceptInvitation(tx, invitation.id))) throw new AppError('notFound', INVITATION_UNUSABLE);
      if (!existing) {
        await repo.insertUser(tx, {
          id: userId,
          email: invitation.email,
          firstName: input.firstName.trim(),
          lastName: input.lastName.trim(),
          passwordHash: passwordHash!,
        });
      } else if (passwordHash) {
        await repo.setAccount(tx, userId, { firstName: input.firstName.trim(), lastName: input.lastName.trim(), passwordHash });
      }
      await repo.upsertMember(tx, { id: newId(), organizationId: invitation.organizationId, userId, role: invitation.role as DashboardRole });
      return this.startSession(tx, userId);
    });
    return { token: sessionToken, organizationId: invitation.organizationId };
  }

  /**
   * Signs in: the session's secret (for the cookie), or 401 with one message for every failure, or 429
   * after too many failures for the account or the client's address within the window.
   */
  signIn(emailInput: string, password: string, ip: string): Promise<string> {
    return inSignInSlot(() => this.signInNow(emailInput, password, ip));
  }

  private async signInNow(emailInput: string, password: string, ip: string): Promise<string> {
    const email = emailInput.trim().toLowerCase().slice(0, 254);
    const subjects = [`account:${email}`, `ip:${ip}`];
    const counts = await repo.countFailures(this.db, subjects, SIGN_IN_WINDOW_SECONDS);
    if ((counts.get(subjects[0]!) ?? 0) >= SIGN_IN_MAX_PER_ACCOUNT || (counts.get(subjects[1]!) ?? 0) >= SIGN_IN_MAX_PER_IP) {
      throw tooManyFailures();
    }
    const user = email ? await repo.findUserByEmail(this.db, email) : undefined;
    const ok = await verifyPassword(user?.passwordHash, password);
    if (!ok || !user) {
      await repo.recordFailure(this.db, subjects);
      if (Math.random() < 0.01) await repo.pruneFailures(this.db, SIGN_IN_WINDOW_SECONDS);
      throw new AppError('unauthorized', SIGN_IN_FAILED);
    }
    return this.startSession(this.db, user.id);
  }

  private async startSession(db: Parameters<typeof repo.insertSession>[0], userId: string): Promise<string> {
    const token = secret();
    await repo.insertSession(db, {
      id: newId(),
      userId,
      tokenHash: sha256(token),
      expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_SECONDS * 1000).toISOString(),
    });
    return token;
  }

  /** The live session of a cookie's value, or null. */
  async session(token: string): Promise<Session | null> {
    if (!token || token.length > 100) return null;
    const row = await repo.findSession(this.db, sha256(token), SESSION_IDLE_SECONDS);
    if (!row) return null;
    if (Date.now() - new Date(row.lastSeenAt).getTime() > TOUCH_EVERY_MS) await repo.touchSession(this.db, row.id);
    return { id: row.id, user: { id: row.userId, email: row.email, firstName: row.firstName, lastName: row.lastName }, csrf: csrfOf(token) };
  }

  signOut(sessionId: string): Promise<unknown> {
    return repo.deleteSession(this.db, sessionId);
  }

  async memberships(userId: string): Promise<Membership[]> {
    return (await repo.membershipsOf(this.db, userId)) as Membership[];
  }

  listMembers(organizationId: string) {
    return repo.listMembers(this.db, organizationId) as Promise<
      Array<{ id: string; userId: string; role: DashboardRole; createdAt: string; email: string; firstName: string | null; lastName: string | null }>
    >;
  }

  listInvitations(organizationId: string) {
    return repo.listOpenInvitations(this.db, organizationId);
  }

  async revokeInvitation(organizationId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await repo.revokeInvitation(this.db, organizationId, id))) throw new AppError('notFound', `Invitation with id ${id} not found`);
  }

  /** Changes a member's role; never leaves the organization without an admin (409). */
  async changeRole(organizationId: string, membershipId: string, role: string): Promise<void> {
    if (!DASHBOARD_ROLES.includes(role as DashboardRole)) throw new FieldErrors({ role: 'Choose admin, editor or viewer.' });
    await this.db.transaction(async (tx) => {
      const admins = await repo.lockAdmins(tx, organizationId);
      const member = isUuid(membershipId) ? await repo.lockMember(tx, organizationId, membershipId) : undefined;
      if (!member) throw new AppError('notFound', `Member with id ${membershipId} not found`);
      if (member.role === 'admin' && role !== 'admin' && admins.length <= 1) throw lastAdmin();
      await repo.setRole(tx, organizationId, membershipId, role as DashboardRole);
    });
  }

  /** Removes a member from the organization (their account stays); never the last admin (409). */
  async removeMember(organizationId: string, membershipId: string): Promise<{ userId: string }> {
    return this.db.transaction(async (tx) => {
      const admins = await repo.lockAdmins(tx, organizationId);
      const member = isUuid(membershipId) ? await repo.lockMember(tx, organizationId, membershipId) : undefined;
      if (!member) throw new AppError('notFound', `Member with id ${membershipId} not found`);
      if (member.role === 'admin' && admins.length <= 1) throw lastAdmin();
      await repo.removeMember(tx, organizationId, membershipId);
      return { userId: member.userId };
    });
  }

  async changeName(userId: string, input: { firstName: string; lastName: string }): Promise<void> {
    const firstName = input.firstName.trim();
    const lastName = input.lastName.trim();
    const errors: Record<string, string> = {};
    if (!firstName || firstName.length > 200) errors.firstName = 'Enter your first name (at most 200 characters).';
    if (!lastName || lastName.length > 200) errors.lastName = 'Enter your last name (at most 200 characters).';
    if (Object.keys(errors).length > 0) throw new FieldErrors(errors);
    await repo.setAccount(this.db, userId, { firstName, lastName });
  }

  /** Changes the password after checking the current one; ends every session and returns a new one. */
  async changePassword(userId: string, input: { currentPassword: string; newPassword: string }): Promise<string> {
    const user = await repo.getUser(this.db, userId);
    if (!user) throw new AppError('unauthorized', 'Sign in again.');
    if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw new FieldErrors({ currentPassword: 'The current password is not right.' });
    const problem = passwordProblem(input.newPassword, user.email);
    if (problem) throw new FieldErrors({ newPassword: problem });
    const passwordHash = await hashPassword(input.newPassword);
    return this.db.transaction(async (tx) => {
      await repo.setAccount(tx, userId, { passwordHash });
      await repo.deleteSessionsOf(tx, userId);
      return this.startSession(tx, userId);
    });
  }
}

const tooManyFailures = () =>
  new AppError('tooManyRequests', 'Too many failed sign-ins. Wait 15 minutes, then try again.', { retryAfterSeconds: SIGN_IN_WINDOW_SECONDS });

const lastAdmin = () => new AppError('conflict', 'An organization keeps at least one admin: make another member an admin first.');
