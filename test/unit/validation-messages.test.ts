import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { MemberList } from '../../src/http/schemas.js';
import { findUnstorableText, formatValidationErrors, isStorableDateTime, unstorableText } from '../../src/http/validation.js';

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

  it('names the members of a comma-separated member list instead of its pattern; other patterns keep ajv’s message', () => {
    const list = ajv.compile({
      type: 'object',
      properties: { status: MemberList(['ACTIVE', 'SOLD_OUT'], 'statuses'), code: { type: 'string', pattern: '^[A-Z]{3}$' } },
    });
    list({ status: 'ACTIVE,GONE', code: 'usd' });
    expect(formatValidationErrors(list.errors ?? [], 'querystring')).toBe(
      'Validation failed: status must be one of: ACTIVE, SOLD_OUT (several comma-separated); code must match pattern "^[A-Z]{3}$"',
    );
    expect(list({ status: 'SOLD_OUT,ACTIVE' })).toBe(true);
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

describe('findUnstorableText', () => {
  it('finds the path of a string holding NUL, in values and keys', () => {
    expect(findUnstorableText({ a: 'fine', b: ['ok', 'bad\u0000'] })).toEqual({ at: 'b[1]', problem: 'must not contain NUL characters' });
    expect(findUnstorableText({ nested: { 'k\u0000': 1 } })?.at).toBe('nested.k\\0');
    expect(findUnstorableText('\u0000')?.at).toBe('');
    expect(findUnstorableText({ a: 'fine', n: 1, z: null })).toBeUndefined();
  });

  it('finds lone UTF-16 surrogates at any depth, and leaves paired ones (emoji) alone', () => {
    const problem = 'must be valid Unicode text';
    expect(findUnstorableText({ apartments: [{ name: 'ok' }, {}, {}, { name: 'a\ud800' }] })).toEqual({ at: 'apartments[3].name', problem });
    expect(findUnstorableText({ apartmentData: { foo: '\udfff' } })).toEqual({ at: 'apartmentData.foo', problem });
    expect(findUnstorableText({ features: [{ name: 'x\udc00y' }] })).toEqual({ at: 'features[0].name', problem });
    expect(findUnstorableText({ apartmentData: { 'k\ud83d': 1 } })).toEqual({ at: 'apartmentData.k\\ud83d', problem });
    expect(findUnstorableText({ name: '😀 é e\u0301 \u202e' })).toBeUndefined();
  });

  it('names the reason for one string', () => {
    expect(unstorableText('a\ud800')).toBe('must be valid Unicode text');
    expect(unstorableText('\u0000')).toBe('must not contain NUL characters');
    expect(unstorableText('😀')).toBeUndefined();
  });
});

describe('isStorableDateTime', () => {
  it.each(['2024-02-29T12:00:00Z', '2024-01-01T00:00:00.123456789+05:30', '1000-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '2024-06-01t10:00:00z'])(
    'accepts %s',
    (value) => expect(isStorableDateTime(value)).toBe(true),
  );
  it.each([
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00Z',
    '9999-12-31T23:59:59-14:00',
    '2024-06-30T23:59:60Z',
    '2023-02-29T00:00:00Z',
    '2024-04-31T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01T00:00:00-23:59',
    '2024-01-01T00:00:00',
    '2024-01-01',
    'yesterday',
  ])('refuses %s', (value) => expect(isStorableDateTime(value)).toBe(false));
});
