import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { findNulString, formatValidationErrors } from '../../src/http/validation.js';

const ajv = new Ajv.default({ allErrors: true, strict: false });
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', maxLength: 5 },
    status: { enum: ['ACTIVE', 'SOLD'] },
    items: { type: 'array', items: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } },
    'a/b': { type: 'number' },
  },
};
const validate = ajv.compile(schema);
const messageFor = (value: unknown) => {
  validate(value);
  return formatValidationErrors(validate.errors ?? [], 'body');
};

describe('formatValidationErrors', () => {
  it('names a missing field, an unknown field, a wrong type and an enum with its members', () => {
    expect(messageFor({ colour: 1 })).toBe('Validation failed: name is required; colour is not allowed');
    expect(messageFor({ name: 3, status: 'GONE' })).toBe('Validation failed: name must be string; status must be one of: ACTIVE, SOLD');
    expect(messageFor({ name: 'toolong' })).toBe('Validation failed: name must NOT have more than 5 characters');
  });

  it('names nested fields with dots and indexes, and unescapes JSON pointer parts', () => {
    expect(messageFor({ name: 'a', items: [{ label: 'x' }, {}] })).toBe('Validation failed: items[1].label is required');
    expect(messageFor({ name: 'a', 'a/b': 'x' })).toBe('Validation failed: a/b must be number');
  });

  it('caps the list at 20 fields and says how many more', () => {
    const many = ajv.compile({ type: 'object', properties: Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, { type: 'number' }])) });
    many(Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`f${i}`, 'x'])));
    const message = formatValidationErrors(many.errors ?? [], 'body');
    expect(message).toContain('f19 must be number');
    expect(message).not.toContain('f20 must');
    expect(message).toMatch(/; and 5 more$/);
  });

  it('falls back to the part name for a root error', () => {
    const root = ajv.compile({ type: 'object' });
    root('x');
    expect(formatValidationErrors(root.errors ?? [], 'querystring')).toBe('Validation failed: querystring must be object');
  });
});

describe('findNulString', () => {
  it('finds the path of a string holding NUL, in values and keys', () => {
    expect(findNulString({ a: 'fine', b: ['ok', 'bad\u0000'] })).toBe('b[1]');
    expect(findNulString({ nested: { 'k\u0000': 1 } })).toBe('nested.k\\0');
    expect(findNulString('\u0000')).toBe('body');
    expect(findNulString({ a: 'fine', n: 1, z: null })).toBeUndefined();
  });
});
