import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, type TestApp, type TestOrg, createTestApp } from '../helpers/app.js';

describe('users (organization members, admin surface)', () => {
  let t: TestApp;
  let a: TestOrg;
  const url = () => `/api/v1/admin/organizations/${a.id}/users`;

  beforeAll(async () => {
    t = await createTestApp();
    a = await t.createOrg('Users A', ['estates']);
  });
  afterAll(async () => t?.close());

  it('creates a member in the spec User shape with its membership', async () => {
    const res = await t.request({
      method: 'POST',
      url: url(),
      key: ADMIN_TOKEN,
      body: {
        email: 'Eve@Example.com',
        firstName: 'Eve',
        lastName: 'Evans',
        avatarUrl: 'https://cdn.example.com/eve.png',
        jobTitle: 'Broker',
        description: 'Senior',
        isRegistered: true,
      },
    });
    expect(res.statusCode).toBe(201);
    const user = res.json();
    expect(user).toMatchObject({
      email: 'Eve@Example.com',
      firstName: 'Eve',
      lastName: 'Evans',
      avatarUrl: 'https://cdn.example.com/eve.png',
      jobTitle: 'Broker',
      description: 'Senior',
      role: 'member',
      isRegistered: true,
    });
    expect(user.organizationMemberships).toEqual([
      {
        id: expect.any(String),
        userId: user.id,
        organizationId: a.id,
        organization: { id: a.id, name: 'Users A', featureFlags: ['estates'] },
        role: 'member',
        createdAt: expect.any(String),
      },
    ]);
  });

  it('refuses a second user with the same email, compared case-insensitively (409)', async () => {
    const res = await t.request({ method: 'POST', url: url(), key: ADMIN_TOKEN, body: { email: 'eve@example.COM' } });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ statusCode: 409, message: 'A user with this email already exists', error: 'Conflict' });
  });

  it('validates the body and names the fields (422)', async () => {
    const res = await t.request({
      method: 'POST',
      url: url(),
      key: ADMIN_TOKEN,
      body: { email: 'nope', role: 'owner', avatarUrl: 'javascript:alert(1)', extra: 1 },
    });
    expect(res.statusCode).toBe(422);
    for (const f of ['email', 'role', 'avatarUrl', 'extra']) expect(res.json().message).toContain(f);
  });

  it('answers 404 for an unknown organization, 401 without a token, 403 with an organization key', async () => {
    for (const id of ['01890000-0000-7000-8000-000000000000', 'nope']) {
      const res = await t.request({ method: 'POST', url: `/api/v1/admin/organizations/${id}/users`, key: ADMIN_TOKEN, body: { email: 'x@example.com' } });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(`Organization with id ${id} not found`);
    }
    expect((await t.request({ method: 'POST', url: url(), body: { email: 'y@example.com' } })).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: url(), key: a.key, body: { email: 'y@example.com' } })).statusCode).toBe(403);
  });
});
