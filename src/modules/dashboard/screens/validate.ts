import type { TSchema } from '@sinclair/typebox';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Errors } from '../render/forms.js';

const ajv = addFormats.default(new Ajv.default({ allErrors: true, strict: false, coerceTypes: false }));
const compiled = new WeakMap<TSchema, ValidateFunction>();

/**
 * Checks a form's values with the API's own schema (the same rules), and names each failing field in the
 * dashboard's words: `messages[field]`, or a plain sentence when the screen has none for it.
 */
export function checkWith(schema: TSchema, input: Record<string, unknown>, messages: Record<string, string>): Errors {
  let check = compiled.get(schema);
  if (!check) {
    check = ajv.compile(schema);
    compiled.set(schema, check);
  }
  const errors: Errors = {};
  if (check(input)) return errors;
  for (const e of check.errors ?? []) {
    const field = e.instancePath.split('/')[1] || (e.params as { missingProperty?: string }).missingProperty || 'form';
    if (!errors[field]) errors[field] = messages[field] ?? `Check this value (${e.message ?? 'not valid'}).`;
  }
  return errors;
}
