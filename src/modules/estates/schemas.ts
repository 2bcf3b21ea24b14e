import { type Static, Type } from '@sinclair/typebox';
import { DateTime, Description, LIMITS, Name, Nullable, PageQuery, StringEnum, withIgnored } from '../../http/schemas.js';
import { BuildingInline } from '../buildings/schemas.js';

export const SUBSCRIPTION_STATUSES = ['DRAFT', 'ACTIVE', 'SUSPENDED', 'CANCELLED'] as const;

export const OrganizationSummary = Type.Object({ id: Type.String(), name: Type.String(), featureFlags: Type.Array(Type.String()) });

export const EstateSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    description: Nullable(Type.String()),
    organizationId: Type.String(),
    slug: Type.String(),
    photoUrl: Nullable(Type.String()),
    navigatorId: Nullable(Type.String()),
    organization: OrganizationSummary,
    buildings: Type.Array(BuildingInline),
    integrationType: Nullable(Type.String()),
    isPreview: Type.Boolean(),
    subscriptionStatus: StringEnum(SUBSCRIPTION_STATUSES),
    manuallyActivatedAt: Nullable(Type.String()),
    manuallyActivatedById: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Estate', title: 'Estate' },
);
export type Estate = Static<typeof EstateSchema>;

/**
 * A link a public page will render: http(s) only, so a stored `javascript:` or `data:` URL can never
 * become a script in the viewer.
 */
export const HttpUrl = () => Type.String({ maxLength: LIMITS.url, pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$', description: 'An http or https URL' });

export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';

/** The writable fields of an estate besides its name (bodies and the apply manifest). */
export const ESTATE_WRITABLE = {
  description: Type.Optional(Nullable(Description())),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: SLUG_PATTERN, description: 'Lowercase ASCII words joined by hyphens; unique' })),
  photoUrl: Type.Optional(Nullable(HttpUrl())),
  integrationType: Type.Optional(Nullable(Type.String({ maxLength: 100, description: 'Opaque integration identifier' }))),
  // Dashboard-managed: accepted only unchanged (GET-modify-PATCH); a different value is 403.
  isPreview: Type.Optional(Type.Boolean({ description: 'Dashboard-managed' })),
  subscriptionStatus: Type.Optional(
    Type.Union(
      SUBSCRIPTION_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Dashboard-managed' },
    ),
  ),
  manuallyActivatedAt: Type.Optional(Nullable(DateTime())),
  manuallyActivatedById: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.shortText }))),
};

export const ESTATE_IGNORED = ['id', 'organizationId', 'organization', 'buildings', 'navigatorId', 'createdAt', 'updatedAt'];
export const DASHBOARD_FIELDS = ['isPreview', 'subscriptionStatus', 'manuallyActivatedAt', 'manuallyActivatedById'] as const;

export const CreateEstateBody = withIgnored({ name: Name('Estate name'), ...ESTATE_WRITABLE }, ESTATE_IGNORED);
export const UpdateEstateBody = withIgnored({ name: Type.Optional(Name('Estate name')), ...ESTATE_WRITABLE }, ESTATE_IGNORED);

export const AdminUpdateEstateBody = Type.Object(
  {
    isPreview: Type.Optional(Type.Boolean()),
    subscriptionStatus: Type.Optional(Type.Union(SUBSCRIPTION_STATUSES.map((s) => Type.Literal(s)))),
    manuallyActivatedAt: Type.Optional(Nullable(DateTime())),
    manuallyActivatedById: Type.Optional(Nullable(Type.String({ maxLength: LIMITS.shortText }))),
  },
  { additionalProperties: false },
);

export const ListEstatesQuery = Type.Object(
  {
    organizationId: Type.Optional(Type.String({ maxLength: 200, description: 'Must be the key’s own organization (403 otherwise)' })),
    buildingId: Type.Optional(Type.String({ maxLength: 200, description: 'Only the estate holding this building' })),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const SetupBody = withIgnored(
  {
    name: Name('Estate name'),
    buildingName: Type.Optional(Name('Name of the first building; "Building 1" when omitted')),
    description: ESTATE_WRITABLE.description,
    slug: ESTATE_WRITABLE.slug,
    photoUrl: ESTATE_WRITABLE.photoUrl,
    integrationType: ESTATE_WRITABLE.integrationType,
  },
  [],
);

export const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 200, description: 'The estate slug (case-insensitive)' }) });

export const EstateBySlug = Type.Object(
  { id: Type.String(), slug: Type.String(), name: Type.String() },
  { title: 'EstateBySlug', description: 'Enough to read the add-ons of /api/v1/estates/{id}/…' },
);
