/**
 * JSON with object keys sorted, so key order and whitespace do not make a retry "different". Below a
 * depth no schema of ours allows, plain JSON text is used, so a hostile nesting cannot exhaust the stack.
 */
export function canonical(value: unknown, depth = 0): string {
  if (depth > 32) return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k], depth + 1)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}
