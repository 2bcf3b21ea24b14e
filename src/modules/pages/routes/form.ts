import { createHash } from 'node:crypto';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest } from 'fastify';
import { SINGLE_LINE, SINGLE_LINE_NAME } from '../../../http/schemas.js';
import { SubmitInquiryBody } from '../../inquiries/schemas.js';
import { HONEYPOT } from '../components/inquiry-form/render.js';
import type { FormState } from '../render/types.js';
import type { Key } from '../shared/words.js';

/** A urlencoded inquiry is a few fields: far less than the JSON limit. */
export const FORM_BODY_LIMIT = 64 * 1024;

const formAjv = addFormats.default(new Ajv.default({ allErrors: true, strict: false, coerceTypes: false }));
const checkInquiry = formAjv.compile(SubmitInquiryBody);

/** Each field's error, as its message's key (shared/words-notices.ts): the page writes it in its language. */
export const MESSAGES: Record<string, Key> = {
  name: 'errName',
  email: 'errEmail',
  phoneNumber: 'errPhone',
  info: 'errInfo',
  apartmentIds: 'errApartments',
};

/** A name or e-mail address with a line break or another control character (sent by a script, not typed). */
const ONE_LINE: Record<string, Key> = {
  name: 'errNameLine',
  email: 'errEmailLine',
};
const isSingleLineRule = (params: unknown) => {
  const { pattern } = params as { pattern?: string };
  return pattern === SINGLE_LINE || pattern === SINGLE_LINE_NAME;
};

/** The urlencoded form as the public inquiry's fields, and its errors by field (after the same schema as the API). */
export function readForm(body: URLSearchParams): { input: Record<string, unknown>; state: FormState; spam: boolean } {
  const one = (k: string) => (body.get(k) ?? '').slice(0, 25_000);
  const values = {
    name: one('name').trim(),
    email: one('email').trim(),
    phoneNumber: one('phoneNumber').trim(),
    info: one('info'),
    apartmentIds: body
      .getAll('apartmentIds')
      .map((id) => id.trim())
      .filter((id) => id !== '')
      .slice(0, 101),
  };
  const input: Record<string, unknown> = { name: values.name, email: values.email };
  if (values.phoneNumber) input.phoneNumber = values.phoneNumber;
  if (values.info.trim()) input.info = values.info;
  if (values.apartmentIds.length > 0) input.apartmentIds = values.apartmentIds;
  const errors: FormState['errors'] = {};
  if (!values.name) errors.name = MESSAGES.name;
  if (!checkInquiry(input)) {
    for (const e of checkInquiry.errors ?? []) {
      const field = (e.instancePath.split('/')[1] ?? (e.params as { missingProperty?: string }).missingProperty ?? 'form') as keyof FormState['errors'];
      if (!(field in MESSAGES)) continue;
      // Saying what is wrong with a line break beats the field's general message.
      if (isSingleLineRule(e.params)) errors[field] = ONE_LINE[field] ?? MESSAGES[field];
      else errors[field] ??= MESSAGES[field];
    }
  }
  return { input, state: { values, errors }, spam: (body.get(HONEYPOT) ?? '') !== '' };
}

/** The inline form's one-time key (a hidden field the browser code adds and fills: src/modules/pages/components/inquiry-form/client.ts). */
export const INQUIRY_KEY_FIELD = 'inquiryKey';
const ONE_TIME_KEY = /^[A-Za-z0-9-]{16,64}$/;

/**
 * The Idempotency-Key of a form post (src/http/idempotency.ts): the browser code's one-time key, so a
 * form sent again after a lost answer stores one inquiry; without JavaScript (the kept page cannot carry
 * a key per visitor) the hash of the page and what the form says, so the same form sent twice (a double
 * click, a reload of the post) is recognised as one. The scope is the client's IP, as for the API.
 */
export function inquiryKeyOf(request: FastifyRequest): string | undefined {
  const body = request.body instanceof URLSearchParams ? request.body : undefined;
  if (!body) return undefined;
  const given = body.get(INQUIRY_KEY_FIELD) ?? '';
  if (ONE_TIME_KEY.test(given)) return `page-form:${given}`;
  const slug = String((request.params as { slug?: unknown }).slug ?? '').toLowerCase();
  const fields = [...body].filter(([name]) => name !== INQUIRY_KEY_FIELD && name !== HONEYPOT).map(([name, value]) => [name, value.trim()]);
  fields.sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return `page-form-content:${createHash('sha256')
    .update(JSON.stringify([slug, fields]))
    .digest('hex')}`;
}
