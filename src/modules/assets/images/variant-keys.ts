/**
 * Where a variant is stored and served: the original's key (or asset id in a /files path) followed by
 * `-w<width>`. Both storage drivers accept the form, and the orphan sweep maps a variant back to its asset.
 */
export const variantKey = (storageKey: string, width: number) => `${storageKey}-w${width}`;

const VARIANT_SUFFIX = /^(.*)-w(\d{1,5})$/;

/** The original's key and the width of a variant key or path segment; undefined for anything else. */
export function parseVariantKey(key: string): { base: string; width: number } | undefined {
  const match = VARIANT_SUFFIX.exec(key);
  return match ? { base: match[1]!, width: Number(match[2]) } : undefined;
}
