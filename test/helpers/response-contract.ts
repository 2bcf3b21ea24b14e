import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openApiPath } from '../../src/http/openapi/document.js';

/**
 * Every answer the app sends in tests is checked against the served OpenAPI document: its status is
 * documented for the operation, its body matches that status's schema, and each documented header is
 * present when required and matches its schema when sent. Fastify's serializer alone drops unknown
 * fields silently, so it proves nothing about the document. A violation is recorded here and fails
 * the test that caused it (test/helpers/contract-setup.ts, a vitest setup file).
 */
export const contractViolations: string[] = [];

type Json = Record<string, unknown>;

const pointerToken = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');

interface Contract {
  doc: Json & { paths: Record<string, Record<string, Json>> };
  ajv: Ajv.default;
  validators: Map<string, ValidateFunction>;
}

function contractOf(app: FastifyInstance, cache: { contract?: Contract }): Contract {
  if (cache.contract) return cache.contract;
  const doc: Contract['doc'] = JSON.parse(JSON.stringify(app.swagger()));
  closeObjects(doc.components);
  closeObjects(doc.paths);
  const ajv = new Ajv.default({ strict: false, allErrors: true, validateSchema: false });
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema(doc, 'openapi');
  cache.contract = { doc, ajv, validators: new Map() };
  return cache.contract;
}

/**
 * The check's copy of the document treats an object schema that lists its properties as closed unless
 * it says otherwise, so a field the document does not name fails (clients cannot know it exists).
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    for (const child of node) closeObjects(child);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const object = node as Json;
  if (object.properties && typeof object.properties === 'object' && object.additionalProperties === undefined && !object.patternProperties) {
    object.additionalProperties = false;
  }
  for (const value of Object.values(object)) closeObjects(value);
}

const explain = (fn: ValidateFunction) =>
  (fn.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.keyword === 'additionalProperties' ? ` (${JSON.stringify(e.params)})` : ''}`)
    .join('; ');

/** Follows a local `$ref` of the document; returns the target and its JSON pointer. */
function resolve(doc: Json, node: Json, pointer: string): { node: Json; pointer: string } {
  const ref = node.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return { node, pointer };
  let target: unknown = doc;
  for (const part of ref.slice(2).split('/')) target = (target as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return resolve(doc, target as Json, ref.slice(1));
}

function validator(contract: Contract, pointer: string): ValidateFunction {
  let fn = contract.validators.get(pointer);
  if (!fn) {
    fn = contract.ajv.compile({ $ref: `openapi#${pointer}` });
    contract.validators.set(pointer, fn);
  }
  return fn;
}

/** The handler's object before the serializer drops what its schema does not name. */
function checkObject(contract: Contract, request: FastifyRequest, reply: FastifyReply, payload: unknown): string[] {
  const url = request.routeOptions.url;
  if (!url || payload === null || typeof payload !== 'object' || Buffer.isBuffer(payload)) return [];
  const path = openApiPath(url);
  const method = request.method.toLowerCase();
  const operation = contract.doc.paths[path]?.[method] as { responses?: Record<string, Json> } | undefined;
  const status = String(reply.statusCode);
  const documented = operation?.responses?.[status];
  if (!documented) return [];
  const { node: response, pointer } = resolve(contract.doc, documented, `/paths/${pointerToken(path)}/${method}/responses/${status}`);
  const content = response.content as Record<string, Json> | undefined;
  if (!content?.['application/json']?.schema) return [];
  const fn = validator(contract, `${pointer}/content/application~1json/schema`);
  const body: unknown = JSON.parse(JSON.stringify(payload));
  return fn(body) ? [] : [`${request.method} ${path} → ${status}: the handler's object ${explain(fn)}`];
}

/**
 * A body's text. The compression hook runs after this check (it is the last hook of each route), so a
 * body is compressed here only if some hook moves ahead of it: then it is decoded, never skipped.
 */
function decoded(payload: Buffer, encoding: unknown): string {
  if (encoding === 'br') return brotliDecompressSync(payload).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(payload).toString('utf8');
  return payload.toString('utf8');
}

function check(contract: Contract, request: FastifyRequest, reply: FastifyReply, payload: unknown): string[] {
  const url = request.routeOptions.url;
  if (!url || request.method === 'HEAD' || request.method === 'OPTIONS') return [];
  const path = openApiPath(url);
  const method = request.method.toLowerCase();
  const operation = contract.doc.paths[path]?.[method] as { responses?: Record<string, Json> } | undefined;
  if (!operation) return []; // hidden routes (the document itself, the docs page)
  const status = String(reply.statusCode);
  const where = `${request.method} ${path} → ${status}`;
  const documented = operation.responses?.[status] ?? operation.responses?.default;
  if (!documented) return [`${where}: status not documented (${String(payload).slice(0, 200)})`];
  const base = `/paths/${pointerToken(path)}/${method}/responses/${status}`;
  const { node: response, pointer } = resolve(contract.doc, documented, base);
  const problems: string[] = [];

  for (const [name, header] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
    const { node: definition, pointer: headerPointer } = resolve(contract.doc, header, `${pointer}/headers/${pointerToken(name)}`);
    const value = reply.getHeader(name);
    if (value === undefined) {
      if (definition.required === true) problems.push(`${where}: required header ${name} missing`);
      continue;
    }
    if (definition.schema) {
      const fn = validator(contract, `${headerPointer}/schema`);
      // A header is text: a numeric one (X-Total-Count) is checked as the number it spells.
      const text = String(value);
      if (!fn(text) && !(/^-?\d+(\.\d+)?$/.test(text) && fn(Number(text)))) problems.push(`${where}: header ${name}=${text}: ${explain(fn)}`);
    }
  }

  const content = response.content as Record<string, Json> | undefined;
  const type = String(reply.getHeader('content-type') ?? '');
  // Node sends no body with 204 and 304 whatever the handler passed.
  const hasBody = status !== '204' && status !== '304' && payload !== undefined && payload !== null && !(typeof payload === 'string' && payload.length === 0);
  if (!content) {
    if (hasBody) problems.push(`${where}: a body where the document has none (${String(payload).slice(0, 200)})`);
    return problems;
  }
  if (!hasBody) return problems;
  if (content['*/*']) return problems;
  if (!/^application\/json/.test(type)) {
    problems.push(`${where}: content-type ${type} not documented`);
    return problems;
  }
  if (!content['application/json']?.schema) return problems;
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? decoded(payload, reply.getHeader('content-encoding')) : undefined;
  if (text === undefined) return problems; // a stream: its bytes are not read here
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, `${where}: body is not JSON`];
  }
  const fn = validator(contract, `${pointer}/content/application~1json/schema`);
  if (!fn(body)) problems.push(`${where}: body ${explain(fn)}: ${text.slice(0, 300)}`);
  return problems;
}

/** AppDeps.testHooks: installs the check on an app before its routes are registered. */
export function installResponseContract(app: FastifyInstance): void {
  const cache: { contract?: Contract } = {};
  app.addHook('preSerialization', async (request, reply, payload) => {
    try {
      contractViolations.push(...checkObject(contractOf(app, cache), request, reply, payload));
    } catch (err) {
      contractViolations.push(`${request.method} ${request.url}: the check failed: ${(err as Error).message}`);
    }
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    try {
      contractViolations.push(...check(contractOf(app, cache), request, reply, payload));
    } catch (err) {
      contractViolations.push(`${request.method} ${request.url}: the check failed: ${(err as Error).message}`);
    }
    return payload;
  });
}
