import { OPERATION_IDS, TAGS } from './operations.js';
import { ERROR_RESPONSES, HEADERS, requestExample, schemaExamples } from './reference.js';

/** The parts of the generated document this pass reads and writes; the rest passes through untouched. */
type Json = Record<string, unknown>;
interface Operation extends Json {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Json[];
  requestBody?: { content?: Record<string, { schema?: Json; example?: unknown; encoding?: Json }> } & Json;
  responses?: Record<string, Json>;
}
interface Document extends Json {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, Json>; responses?: Record<string, Json>; headers?: Record<string, Json> } & Json;
}

export interface DocumentedRoute {
  method: string;
  url: string;
  auth: string;
  idempotent: boolean;
  publishable?: boolean;
  scope?: string | undefined;
}

/** `/api/v1/estate/:id` as OpenAPI writes it: `/api/v1/estate/{id}`. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

const ERROR_REF = '#/components/schemas/Error';
const isErrorResponse = (response: Json) =>
  ((response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema?.$ref as string | undefined) === ERROR_REF;

/**
 * Makes the document @fastify/swagger generates from the route schemas exact where route schemas cannot
 * say it: operationIds, declared tags, named error responses, response headers, optional security on
 * public reads, the multipart upload body, the binary file route, named add-on schemas and examples.
 * Pure: the same routes give the same document (the TypeScript client is generated from it).
 */
export function refineDocument(doc: Document, routes: readonly DocumentedRoute[]): Document {
  const byKey = new Map(routes.map((r) => [`${r.method} ${openApiPath(r.url)}`, r]));
  doc.servers = [{ url: '/', description: 'The server that serves this document' }];
  const used = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const key = `${method.toUpperCase()} ${path}`;
      const route = byKey.get(key);
      const operationId = OPERATION_IDS[key];
      if (operationId) operation.operationId = operationId;
      for (const tag of operation.tags ?? []) used.add(tag);
      refineSecurity(operation, route?.auth ?? 'none');
      if (!operation.description) operation.description = describe(operation, route);
      refineResponses(operation, route);
      stripIgnoredFields(operation);
      const example = operationId ? requestExample(operationId) : undefined;
      const media = operation.requestBody?.content?.['application/json'];
      if (example !== undefined && media) media.example = example;
    }
  }
  refineUpload(doc);
  refineFiles(doc);

  const declared = TAGS.filter((t) => used.has(t.name));
  const undeclared = [...used].filter((name) => !TAGS.some((t) => t.name === name)).map((name) => ({ name, description: name }));
  doc.tags = [...declared, ...undeclared];

  const components = doc.components;
  components.responses = structuredClone(ERROR_RESPONSES) as Record<string, Json>;
  components.headers = structuredClone(HEADERS) as Record<string, Json>;
  components.securitySchemes = {
    apiKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'epk_…',
      description: 'An organization API key (`Authorization: Bearer epk_…`), issued by the operator or by the organization',
    },
    operatorToken: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'ADMIN_TOKEN',
      description: 'The operator secret (`ADMIN_TOKEN`); only the /api/v1/admin paths take it',
    },
  };
  hoistNamedSchemas(doc);
  for (const [name, examples] of Object.entries(schemaExamples())) {
    const schema = components.schemas?.[name];
    if (schema) schema.examples = examples;
  }
  return doc;
}

function refineSecurity(operation: Operation, auth: string): void {
  // Public reads take the owner's key too (it shows an add-on that is off); declaring both lets a client send it.
  if (auth === 'public') operation.security = [{}, { apiKey: [] }];
  else if (auth === 'none') operation.security = [];
}

/** Who may call the operation and how it retries, from the route's configuration. */
function describe(operation: Operation, route: DocumentedRoute | undefined): string {
  const parts = [operation.summary ? `${operation.summary.replace(/\.$/, '')}.` : ''];
  const auth = route?.auth ?? 'none';
  if (auth === 'partner' && route?.scope === 'any') parts.push('Takes any valid organization API key: read, write or publishable.');
  else if (auth === 'partner') {
    const scope = route?.scope ?? (route?.method === 'GET' ? 'read' : 'write');
    parts.push(`Needs an organization API key with the \`${scope}\` scope; another organization's resources answer 404.`);
  } else if (auth === 'public') parts.push('No key needed; a key, when sent, must be valid (401 otherwise) and lets the owner see more.');
  else if (auth === 'admin') parts.push('Needs the operator token (ADMIN_TOKEN); an organization key is 403.');
  else parts.push('Takes no credentials.');
  if (route?.idempotent) parts.push('Send an Idempotency-Key to retry it safely: a repeat replays the first answer.');
  return parts.filter(Boolean).join(' ');
}

const SUCCESS_DESCRIPTIONS: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'Done; no body',
  '503': 'Not ready: a dependency is unavailable',
};

function refineResponses(operation: Operation, route: DocumentedRoute | undefined): void {
  const responses = operation.responses ?? {};
  const metered = route?.auth === 'partner' || route?.auth === 'public';
  // A cached read: the add-on reads and the slug lookup (public GETs), and whatever a publishable key reads.
  const cached = route?.method === 'GET' && (route.auth === 'public' || route.publishable === true);
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
  for (const [status, response] of Object.entries(responses)) {
    if (isErrorResponse(response)) {
      const named = ERROR_RESPONSE_NAMES[status];
      if (named) responses[status] = { $ref: `#/components/responses/${named}` };
      continue;
    }
    if (response.description === 'Default Response') response.description = successDescription(status, response);
    if (response.$ref) continue;
    const headers = (response.headers ?? {}) as Record<string, Json>;
    headers['X-Request-Id'] = ref('X-Request-Id');
    response.headers = headers;
    if (status === '304') {
      // A 304 carries what the 200 would have said about caching, and is metered like it.
      Object.assign(headers, { ETag: ref('ETag'), 'Cache-Control': ref('Cache-Control'), Vary: ref('Vary') });
      if (metered)
        Object.assign(headers, {
          'RateLimit-Limit': ref('RateLimit-Limit'),
          'RateLimit-Remaining': ref('RateLimit-Remaining'),
          'RateLimit-Reset': ref('RateLimit-Reset'),
        });
      continue;
    }
    if (!status.startsWith('2')) continue;
    // Any JSON or HTML answer may be compressed (src/http/compression.ts), so it names Accept-Encoding.
    if (response.content) headers.Vary = ref('Vary');
    if (headers.ETag || (cached && status === '200')) headers.ETag = ref('ETag');
    if (cached && status === '200') Object.assign(headers, { 'Cache-Control': ref('Cache-Control'), Vary: ref('Vary') });
    if (metered) {
      headers['RateLimit-Limit'] = { $ref: '#/components/headers/RateLimit-Limit' };
      headers['RateLimit-Remaining'] = { $ref: '#/components/headers/RateLimit-Remaining' };
      headers['RateLimit-Reset'] = { $ref: '#/components/headers/RateLimit-Reset' };
    }
    if (route?.idempotent) headers['Idempotent-Replayed'] = { $ref: '#/components/headers/Idempotent-Replayed' };
    if (Object.keys(headers).length > 0) response.headers = headers;
  }
  // A list's 304 keeps the paging headers its 200 would have had (the route set them before the ETag matched).
  const ok = responses['200']?.headers as Record<string, Json> | undefined;
  const notModified = responses['304']?.headers as Record<string, Json> | undefined;
  if (ok && notModified) for (const name of ['X-Total-Count', 'Link']) if (ok[name]) notModified[name] = ok[name];
  // A metered route can answer 429 whatever else it does.
  if (metered && !responses['429']) responses['429'] = { $ref: '#/components/responses/TooManyRequests' };
  // Every query string and header is checked for text PostgreSQL cannot hold (NUL, lone surrogates) before
  // routing's own validation, on every route; any operation can meet an unexpected error or a database that went away.
  responses['422'] ??= { $ref: '#/components/responses/UnprocessableEntity' };
  responses['500'] ??= { $ref: '#/components/responses/InternalServerError' };
  responses['503'] ??= { $ref: '#/components/responses/ServiceUnavailable' };
  responses['507'] ??= { $ref: '#/components/responses/InsufficientStorage' };
  // A write whose transaction collides with a concurrent one (deadlock, serialization failure) is 409: retry it.
  if (route && route.method !== 'GET' && route.auth !== 'none') responses['409'] ??= { $ref: '#/components/responses/Conflict' };
  operation.responses = sortByStatus(responses);
}

const ERROR_RESPONSE_NAMES: Record<string, string> = {
  '400': 'BadRequest',
  '401': 'Unauthorized',
  '403': 'Forbidden',
  '404': 'NotFound',
  '409': 'Conflict',
  '412': 'PreconditionFailed',
  '413': 'PayloadTooLarge',
  '416': 'RangeNotSatisfiable',
  '422': 'UnprocessableEntity',
  '429': 'TooManyRequests',
  '500': 'InternalServerError',
  '503': 'ServiceUnavailable',
  '507': 'InsufficientStorage',
};

function successDescription(status: string, response: Json): string {
  const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
  const ref = schema?.$ref as string | undefined;
  const base = SUCCESS_DESCRIPTIONS[status] ?? 'Answer';
  return ref ? `${base}: the ${ref.split('/').pop()}` : base;
}

const sortByStatus = (responses: Record<string, Json>) => Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));

/**
 * Server-managed fields a client may send back unchanged (GET-modify-PATCH) are accepted and ignored; the
 * document declares them as properties of the request body described as ignored, so it and the server
 * agree (a closed body that the server nevertheless accepted fields beyond was issue 25's finding).
 * Request rules the service checks itself, with clearer messages than a schema error, are written into
 * the document here: `x-exactly-one` (exactly one of these properties, e.g. a bulk PATCH item's `id` or
 * `externalId`) becomes a `oneOf` of `required` lists, and `x-format` becomes `format`.
 */
function stripIgnoredFields(operation: Operation): void {
  for (const media of Object.values(operation.requestBody?.content ?? {})) {
    if (media.schema) stripIgnoredIn(media.schema);
  }
}

function stripIgnoredIn(schema: Json): void {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (properties) {
    const ignored = Object.keys(properties).filter((name) => properties[name]?.['x-ignored'] === true);
    // Declared as accepted properties, not `readOnly`: a validating proxy (Prism) treats a readOnly property
    // of a request as absent, and a closed body then refuses it where the server accepts it.
    for (const name of ignored) {
      const { 'x-ignored': _, readOnly: __, ...declared } = properties[name]!;
      properties[name] = declared;
    }
    if (ignored.length > 0) {
      const note = `Server-managed fields of the resource (${ignored.join(', ')}) may be sent back unchanged and are ignored.`;
      schema.description = schema.description ? `${schema.description} ${note}` : note;
    }
    for (const child of Object.values(properties)) stripIgnoredIn(child);
  }
  const format = schema['x-format'] as string | undefined;
  if (format) {
    Reflect.deleteProperty(schema, 'x-format');
    schema.format = format;
  }
  const exactlyOne = schema['x-exactly-one'] as string[] | undefined;
  if (exactlyOne) {
    Reflect.deleteProperty(schema, 'x-exactly-one');
    schema.oneOf = exactlyOne.map((name) => ({ required: [name] }));
  }
  const items = schema.items as Json | undefined;
  if (items && typeof items === 'object') stripIgnoredIn(items);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const child of (schema[key] as Json[] | undefined) ?? []) stripIgnoredIn(child);
  }
}

/** The upload is read by @fastify/multipart in the handler, so no route schema can describe its body. */
function refineUpload(doc: Document): void {
  const upload = doc.paths['/api/v1/asset/upload']?.post;
  if (!upload) return;
  upload.requestBody = {
    required: true,
    content: {
      'multipart/form-data': {
        schema: {
          type: 'object',
          required: ['file'],
          properties: {
            name: { type: 'string', maxLength: 200, description: 'Name of the asset (default: the file name); must come before the file part' },
            file: { type: 'string', format: 'binary', description: 'The file, at most 20 MB (20,971,520 bytes); its type is read from its bytes' },
          },
        },
        encoding: { file: { contentType: 'application/octet-stream' } },
      },
    },
  };
}

/** The file route streams bytes; its answers are written here. */
function refineFiles(doc: Document): void {
  const files = doc.paths['/files/{organizationId}/{assetId}']?.get;
  if (!files) return;
  const binary = { '*/*': { schema: { type: 'string', format: 'binary' } } };
  const fileHeaders = {
    ETag: { $ref: '#/components/headers/ETag' },
    'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' },
    'Cache-Control': { schema: { type: 'string' }, description: 'public, max-age=31536000, immutable: a key never changes' },
    'Accept-Ranges': { schema: { type: 'string', enum: ['bytes'] } },
    'Content-Disposition': { schema: { type: 'string' }, description: 'inline, or attachment for types a browser could run (SVG, HTML, XML, JS)' },
  };
  files.parameters = [
    ...(files.parameters ?? []),
    { in: 'header', name: 'range', required: false, schema: { type: 'string' }, description: 'One byte range, e.g. bytes=0-1023' },
    { in: 'header', name: 'if-range', required: false, schema: { type: 'string' }, description: 'The ETag; the range is honoured only if it still matches' },
    { in: 'header', name: 'if-none-match', required: false, schema: { type: 'string' }, description: 'ETag(s) of a copy held; 304 when one matches' },
  ];
  files.responses = {
    '200': { description: 'The bytes, with their content type', headers: fileHeaders, content: binary },
    '206': {
      description: 'The requested range',
      headers: { ...fileHeaders, 'Content-Range': { schema: { type: 'string' }, required: true, description: 'bytes start-end/size' } },
      content: binary,
    },
    '304': {
      description: 'Not modified (If-None-Match matched the ETag)',
      headers: { ETag: fileHeaders.ETag, 'Cache-Control': fileHeaders['Cache-Control'], 'X-Request-Id': fileHeaders['X-Request-Id'] },
    },
    '404': { $ref: '#/components/responses/NotFound' },
    '416': { $ref: '#/components/responses/RangeNotSatisfiable' },
    '422': { $ref: '#/components/responses/UnprocessableEntity' },
    '500': { $ref: '#/components/responses/InternalServerError' },
    '503': { $ref: '#/components/responses/ServiceUnavailable' },
    '507': { $ref: '#/components/responses/InsufficientStorage' },
  };
}

/**
 * Inline object schemas that carry a `title` (the add-on documents and their children) become named
 * components, so generated clients get `GallerySection` rather than an anonymous shape per route.
 */
function hoistNamedSchemas(doc: Document): void {
  const schemas = doc.components.schemas ?? {};
  doc.components.schemas = schemas;
  const serialized = new Map<string, string>();
  const visit = (node: unknown, root: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => visit(n, false));
    if (!node || typeof node !== 'object') return node;
    const object = node as Json;
    for (const [key, value] of Object.entries(object)) object[key] = visit(value, false);
    const title = object.title;
    if (root || typeof title !== 'string' || object.type !== 'object' || object.$id) return object;
    const text = JSON.stringify(object);
    const seen = serialized.get(title);
    if (seen === undefined && !schemas[title]) {
      schemas[title] = object;
      serialized.set(title, text);
    } else if (seen !== text) return object; // a different shape under the same title stays inline
    return { $ref: `#/components/schemas/${title}` };
  };
  for (const operations of Object.values(doc.paths)) visit(operations, false);
  for (const [name, schema] of Object.entries(schemas)) {
    if (!serialized.has(name)) schemas[name] = visit(schema, true) as Json;
  }
}
