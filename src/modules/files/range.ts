export type RangeResult = { kind: 'full' } | { kind: 'partial'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One byte range of a `Range` header (RFC 9110). Several ranges or an unknown unit are answered
 * with the whole file, which the RFC allows; a syntactically valid range past the end is 416.
 */
export function parseRange(header: string | undefined, size: number): RangeResult {
  if (!header) return { kind: 'full' };
  const match = /^bytes=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };
  if (first === '') {
    // A suffix: the last N bytes.
    const n = Number(last);
    if (n === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', start: Math.max(0, size - n), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'partial', start, end };
}
