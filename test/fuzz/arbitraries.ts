import fc from 'fast-check';

/** Strings a hostile client sends: unicode, NUL, huge, numeric-looking, path tricks. */
export const nastyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '../../etc/passwd',
    '%00',
    '\u202e',
    '😀'.repeat(3),
    'null',
    'NaN',
    '-1',
    '1e309',
    "'; DROP TABLE estates; --",
  ),
  fc.integer({ min: 199, max: 260 }).map((n) => 'x'.repeat(n)),
  fc.constantFrom(5_000, 20_001, 100_001).map((n) => 'y'.repeat(n)),
);

export const nastyNumber = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 1, 90, 90.0001, -180.5, 22, 23, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE),
);

const protoKeys = fc.constantFrom('__proto__', 'constructor', 'prototype');

/** Any JSON value, biased to deep nesting and prototype-pollution keys. */
export const nastyJson: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString,
    nastyNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), protoKeys), tie('value'), { maxKeys: 5 }),
  ),
})).value;

/** Deeply nested arrays/objects past any sane depth. */
export const deepNesting = fc.integer({ min: 50, max: 3000 }).map((depth) => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  format?: string;
}

/**
 * A body shaped like the schema but with values drawn at and past its limits, so validation
 * paths deep inside the object run, not only the top-level type check.
 */
export function bodyFor(schema: JsonSchema | undefined, valid: Record<string, unknown>, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 4) return nastyJson;
  if (schema.anyOf?.length) return fc.oneof(...schema.anyOf.map((s) => bodyFor(s, valid, depth + 1)));
  if (schema.enum) return fc.oneof(fc.constantFrom(...schema.enum), nastyString);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const props = schema.properties ?? {};
      const entries: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, s] of Object.entries(props)) {
        entries[k] = fc.oneof(
          { weight: 3, arbitrary: valid[k] !== undefined ? fc.constant(valid[k]) : bodyFor(s, valid, depth + 1) },
          { weight: 1, arbitrary: bodyFor(s, valid, depth + 1) },
          { weight: 1, arbitrary: nastyJson },
        );
      }
      return fc
        .tuple(fc.record(entries, { requiredKeys: [] }), fc.option(fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), protoKeys), nastyJson, { maxKeys: 2 })))
        .map(([o, extra]) => ({ ...o, ...(extra ?? {}) }));
    }
    case 'array':
      return fc.oneof(
        fc.array(bodyFor(schema.items, valid, depth + 1), { maxLength: 5 }),
        fc.constant(Array.from({ length: 5_001 }, () => ({ name: 'x' }))),
        nastyJson,
      );
    case 'string': {
      const around = schema.maxLength ? fc.constantFrom(schema.maxLength, schema.maxLength + 1).map((n) => 'z'.repeat(n)) : nastyString;
      return fc.oneof(nastyString, around, fc.constantFrom('2026-01-01T00:00:00Z', 'not-a-date', 'https://example.com/a.png', 'javascript:alert(1)'));
    }
    case 'integer':
    case 'number': {
      const edges = [schema.minimum, schema.maximum].filter((n): n is number => typeof n === 'number').flatMap((n) => [n, n - 1, n + 1, n + 0.5]);
      return edges.length ? fc.oneof(nastyNumber, fc.constantFrom(...edges)) : nastyNumber;
    }
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constantFrom('true', 0, 1, null));
    default:
      return nastyJson;
  }
}
