import { type Static, Type } from '@sinclair/typebox';
import { Description, LIMITS, Nullable, StringEnum } from '../../http/schemas.js';

export const USER_ROLES = ['admin', 'member'] as const;
const Role = () =>
  Type.Union(
    USER_ROLES.map((r) => Type.Literal(r)),
    { description: 'admin or member (complete list)' },
  );

const MembershipInline = Type.Object({
  id: Type.String(),
  userId: Type.String(),
  organizationId: Type.String(),
  organization: Type.Object({ id: Type.String(), name: Type.String(), featureFlags: Type.Array(Type.String()) }),
  role: StringEnum(USER_ROLES),
  createdAt: Type.String({ format: 'date-time' }),
});

const userProperties = {
  id: Type.String(),
  firstName: Nullable(Type.String()),
  lastName: Nullable(Type.String()),
  avatarUrl: Nullable(Type.String()),
  jobTitle: Nullable(Type.String()),
  description: Nullable(Type.String()),
  email: Type.String(),
  role: StringEnum(USER_ROLES),
  createdAt: Type.String({ format: 'date-time' }),
  isRegistered: Type.Boolean(),
  organizationMemberships: Type.Array(MembershipInline),
};

export const UserSchema = Type.Object(userProperties, { $id: 'User', title: 'User' });
export type User = Static<typeof UserSchema>;
/** The same shape for embedding in an inquiry (fast-json-stringify cannot follow a nested $ref). */
export const UserInline = Type.Object(userProperties);

export const HttpUrl = () => Type.String({ maxLength: LIMITS.url, pattern: '^https?://\\S+$', description: 'http or https URL' });

export const CreateUserBody = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    firstName: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.name }))),
    lastName: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.name }))),
    avatarUrl: Type.Optional(Nullable(HttpUrl())),
    jobTitle: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.name }))),
    description: Type.Optional(Nullable(Description())),
    role: Type.Optional(Role()),
    isRegistered: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
