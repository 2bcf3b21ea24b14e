import { type Static, Type } from '@sinclair/typebox';
import { Name, PageQuery } from '../../http/schemas.js';

const Scope = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('publishable')], {
  description: 'read: GET; write: everything else; publishable: only what a public page shows, safe in a browser (alone)',
});
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
  apiKeyId: Type.String({ description: 'Its id, for GET and DELETE /api/v1/api-keys' }),
});

const KeyFields = {
  name: Type.Optional(Name('Key label')),
  scopes: Type.Optional(Type.Array(Scope, { minItems: 1, maxItems: 3, description: 'Default read and write; publishable cannot be combined' })),
  expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'The key answers 401 from then on; never when omitted' })),
};

/** The operator's POST /admin/organizations/{id}/api-keys: every field optional. */
export const IssueKeyBody = Type.Object(KeyFields, { additionalProperties: false });

/** An organization's own POST /api-keys: a key needs a name there, so the list says what it is for. */
export const CreateKeyBody = Type.Object({ ...KeyFields, name: Name('Key label, e.g. "website" or "ERP sync"') }, { additionalProperties: false });

const keyMetadata = {
  id: Type.String(),
  name: Type.String(),
  scopes: Type.Array(Scope),
  prefix: Type.String({ description: 'The first characters of the secret, to recognise it' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
};

export const IssuedKeySchema = Type.Object({ ...keyMetadata, apiKey: Type.String({ description: 'The secret; shown only now' }) }, { title: 'IssuedApiKey' });
export type IssuedKey = Static<typeof IssuedKeySchema>;

export const ApiKeySchema = Type.Object(
  { ...keyMetadata, revokedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]) },
  { title: 'ApiKey', description: 'A key as its organization sees it: never the secret' },
);
export type ApiKey = Static<typeof ApiKeySchema>;

export const ListOrganizationsQuery = Type.Object(PageQuery, { additionalProperties: false });
export const KeyIdParams = Type.Object({ keyId: Type.String({ maxLength: 200 }) });

/** GET /api/v1/api-keys/current: what the calling key is and may do, whatever its scope. */
export const CurrentKeySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(Scope),
    organizationId: Type.String(),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { title: 'CurrentApiKey', description: 'The key that made the request: never its secret' },
);
export type CurrentKey = Static<typeof CurrentKeySchema>;
