import { type Static, Type } from '@sinclair/typebox';
import { Name, PageQuery } from '../../http/schemas.js';

const Scope = Type.Union([Type.Literal('read'), Type.Literal('write')]);
const FeatureFlags = Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100 });

export const OrganizationSchema = Type.Object(
  { id: Type.String(), name: Type.String(), featureFlags: Type.Array(Type.String()), createdAt: Type.String({ format: 'date-time' }) },
  { $id: 'Organization', title: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

export const CreateOrganizationBody = Type.Object(
  { name: Name('Organization name'), featureFlags: Type.Optional(FeatureFlags) },
  { additionalProperties: false },
);

export const CreatedOrganization = Type.Object({
  organization: Type.Ref(OrganizationSchema),
  apiKey: Type.String({ description: 'The first API key (read and write); shown only now' }),
});

export const IssueKeyBody = Type.Object(
  { name: Type.Optional(Name('Key label')), scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 2 })) },
  { additionalProperties: false },
);

export const IssuedKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(Type.String()),
    apiKey: Type.String({ description: 'The secret; shown only now' }),
    createdAt: Type.String({ format: 'date-time' }),
  },
  { title: 'IssuedKey' },
);
export type IssuedKey = Static<typeof IssuedKeySchema>;

export const ListOrganizationsQuery = Type.Object(PageQuery, { additionalProperties: false });
export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 200 }) });
