import { SCHEMA_EXAMPLES } from './examples.js';

/** Named responses, headers and examples of the OpenAPI document (components), used by document.ts. */

const errorResponse = (description: string, example: { statusCode: number; error: string; message: string }, headers?: Record<string, unknown>) => ({
  description,
  headers: {
    'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
    'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
    'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    Vary: { $ref: '#/components/headers/Vary' },
    ...headers,
  },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } },
});

/** Every error status the service answers, each with the one error body `{statusCode, message, error}`. */
export const ERROR_RESPONSES: Record<string, unknown> = {
  BadRequest: errorResponse('The request cannot be read (malformed JSON, wrong Content-Type, bad query parameter) or an asset kind is not accepted', {
    statusCode: 400,
    error: 'Bad Request',
    message: 'querystring/limit must be integer',
  }),
  Unauthorized: errorResponse('Missing or invalid API key', { statusCode: 401, error: 'Unauthorized', message: 'Missing or invalid API key' }),
  Forbidden: errorResponse('The key may not do this (read-only key, dashboard-managed field, operator endpoint)', {
    statusCode: 403,
    error: 'Forbidden',
    message: 'This key is read-only',
  }),
  NotFound: errorResponse('Not found, or not visible to this key', {
    statusCode: 404,
    error: 'Not Found',
    message: 'Estate with id 0190c6a4-8f2e-7d4b-9a31-2f6f1c1e9b10 not found',
  }),
  Conflict: errorResponse('Collides with current state (duplicate name or slug, idempotent request still running) or with a concurrent change (retry)', {
    statusCode: 409,
    error: 'Conflict',
    message: 'An estate named "Park Residence" already exists',
  }),
  PreconditionFailed: errorResponse('If-Match names no current ETag of the resource; nothing was changed', {
    statusCode: 412,
    error: 'Precondition Failed',
    message: 'If-Match does not match the current ETag',
  }),
  PayloadTooLarge: errorResponse('Body or upload too large', { statusCode: 413, error: 'Payload Too Large', message: 'The file is larger than 20 MB' }),
  RangeNotSatisfiable: errorResponse(
    'The requested range is outside the file',
    { statusCode: 416, error: 'Range Not Satisfiable', message: 'The requested range is outside the file' },
    { 'Content-Range': { schema: { type: 'string' }, description: 'bytes */size' } },
  ),
  UnprocessableEntity: errorResponse('Validation failed; the message names every offending field', {
    statusCode: 422,
    error: 'Unprocessable Entity',
    message: 'name must NOT have fewer than 1 characters',
  }),
  TooManyRequests: errorResponse(
    'Rate limited; retry after Retry-After seconds',
    { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded: at most 600 requests per 60 s; retry in 12 seconds' },
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
  InternalServerError: errorResponse('An unexpected error; the body never carries details (they are in the log under the request id)', {
    statusCode: 500,
    error: 'Internal Server Error',
    message: 'An unexpected error occurred',
  }),
  ServiceUnavailable: errorResponse(
    'A dependency (database, file storage) is unavailable or did not answer in time; the message names it. Nothing was changed; retry after Retry-After seconds',
    { statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable; retry later' },
    { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  ),
  InsufficientStorage: errorResponse(
    "The database's or file storage's disk is full; the message names which. Nothing was written; retrying helps only once an operator frees space",
    { statusCode: 507, error: 'Insufficient Storage', message: 'File storage is out of space; nothing was written' },
  ),
};

const integer = { type: 'string', pattern: '^[0-9]+$' };

export const HEADERS: Record<string, unknown> = {
  ETag: { description: 'Strong ETag of this representation; send it back in If-Match (writes) or If-None-Match (reads)', schema: { type: 'string' } },
  'RateLimit-Limit': { description: 'Requests allowed in the current window for this key (or client IP when anonymous)', schema: integer },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: integer },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: integer },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: integer },
  'X-Request-Id': {
    description:
      'The id of this request in the service’s logs and traces: the X-Request-Id the client sent when it is 1–128 safe characters, a new UUID otherwise. On every answer',
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description:
      'On the cached reads (public add-on reads, the slug lookup, every answer to a publishable key): `public, max-age=30` (the add-on reads name their own lifetime); a browser or CDN may keep the answer that long',
    schema: { type: 'string' },
  },
  Vary: {
    description:
      'The request headers the answer depends on: `accept-encoding` on every JSON or HTML answer (it may be compressed), `authorization` for an answer to a publishable key, `origin` with CORS',
    schema: { type: 'string' },
  },
  'Idempotent-Replayed': {
    description: 'true when this is the stored answer to an earlier request with the same Idempotency-Key (nothing was done again)',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ESTATE_ID = '0190c6a4-8f2e-7d4b-9a31-2f6f1c1e9b10';
const BUILDING_ID = '0190c6a4-9a11-7e25-8c3d-6b2a9f0d4e21';
const ASSET_ID = '0190c6a5-1b7c-7a02-9e44-0c5d8e3f2a17';
const NAVIGATOR_ID = '0190c6a4-8f30-7b11-8e02-4a5c3d2e1f00';
const APARTMENT_ID = '0190c6a4-9b20-7c33-9d44-5e6f7a8b9c0d';

const EXAMPLES: Record<string, unknown> = {
  createOrganization: { name: 'Acme Developments' },
  issueOrganizationApiKey: { name: 'Website (read only)', scopes: ['read'] },
  createEstate: { name: 'Park Residence', description: 'Two buildings by the river', slug: 'park-residence' },
  setupEstate: { name: 'Park Residence', buildingName: 'Building A' },
  updateEstate: { description: 'Two buildings by the river, ready in 2027' },
  createBuilding: { estateId: ESTATE_ID, name: 'Building B' },
  createApartment: { buildingId: BUILDING_ID, name: 'A-101', priceCents: 45_000_000, currency: 'EUR', externalId: 'A-101', assetsIds: [ASSET_ID] },
  updateApartment: { status: 'BOOKED' },
  createApartments: { buildingId: BUILDING_ID, apartments: [{ name: 'A-101' }, { name: 'A-102', priceCents: 52_000_000, currency: 'EUR' }] },
  upsertApartments: { buildingId: BUILDING_ID, apartments: [{ externalId: 'A-101', name: 'A-101', priceCents: 46_000_000 }] },
  updateApartments: { apartments: [{ externalId: 'A-101', status: 'SOLD' }] },
  submitInquiry: { name: 'Jane Doe', email: 'jane@example.com', phoneNumber: '+48 600 100 200', info: 'Is A-101 still available?' },
  updateInquiry: { status: 'IN_PROGRESS' },
  createAssetFromUrl: { src: 'https://example.com/plans/a-101.pdf', name: 'A-101 floor plan' },
  createWebhook: { url: 'https://example.com/hooks/estates', events: ['inquiry.created', 'apartment.updated'] },
  setGallery: { enabled: true },
  createGallerySection: { title: 'Interiors' },
  createGalleryItem: { assetId: ASSET_ID, caption: 'Living room' },
  orderGallerySections: { orderedIds: ['0190c6a6-0000-7000-8000-000000000002', '0190c6a6-0000-7000-8000-000000000001'] },
  setMap: { enabled: true, centerLat: 52.2297, centerLng: 21.0122, defaultZoom: 14 },
  createMapPoi: { category: 'EDUCATION', label: 'Primary school', lat: 52.231, lng: 21.015 },
  createDownloadsGroup: { title: 'Brochures' },
  createDownloadsItem: { assetId: ASSET_ID, label: 'Brochure (PDF)' },
  createInvestmentSection: { title: 'Permits', description: '<p>Building permit and its amendments</p>' },
  createInvestmentFile: { assetId: ASSET_ID, label: 'Building permit' },
  createNavigator: { estateId: ESTATE_ID, parentId: NAVIGATOR_ID, referenceType: 'building', referenceId: BUILDING_ID, name: 'Building B' },
  updateNavigator: {
    seoTitle: 'Park Residence in 3D',
    options: {
      startingAngle: 90,
      hideColumns: ['price'],
      customTheme: { fontFamily: 'sans-serif', '--apartment-active-fill': 'rgba(34, 197, 94, 0.45)', '--apartment-sold-fill': '#ef4444' },
    },
  },
  createNavigatorImage: { assetId: ASSET_ID, angle: 90, name: 'East', isMarketingStop: true, highlightLabel: 'Morning sun' },
  updateNavigatorImage: { angle: 120, highlightLabel: null },
  setNavigatorImageShapes: [
    { name: 'A-101', referenceType: 'apartment', referenceId: APARTMENT_ID, shape: 'M 812 410 L 948 410 L 948 502 L 812 502 Z' },
    { referenceType: 'building', referenceId: BUILDING_ID, shape: 'M 600 120 L 1320 120 L 1320 980 L 600 980 Z' },
  ],
  setNavigatorImagePois: [{ x: 960, y: 300, data: { type: 'panorama', panoramaId: '0190c6a7-0000-7000-8000-000000000001' } }],
};

/** The request-body example of an operation, if it has one. */
export const requestExample = (operationId: string): unknown => EXAMPLES[operationId];

/** Examples of named schemas (components/schemas), shown by the docs page instead of generated samples. */
export const schemaExamples = (): Record<string, unknown[]> => ({
  Error: [{ statusCode: 404, error: 'Not Found', message: `Estate with id ${ESTATE_ID} not found` }],
  ...Object.fromEntries(Object.entries(SCHEMA_EXAMPLES).map(([name, example]) => [name, [example]])),
});
