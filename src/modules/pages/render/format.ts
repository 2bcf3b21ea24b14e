import type { Apartment } from '../../apartments/schemas.js';

const cache = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, options);
    if (cache.size < 1_000) cache.set(key, format);
  }
  return format;
}

/** The price a public page may show, formatted, or null: only with showPrice, never for HIDDEN (the data is masked already). */
export function shownPrice(apartment: Apartment, locale: string): string | null {
  if (apartment.priceCents === null || !apartment.showPrice || apartment.status === 'HIDDEN') return null;
  const amount = apartment.priceCents / 100;
  if (!apartment.currency) return numberFormat(locale, { maximumFractionDigits: 2 }).format(amount);
  try {
    return numberFormat(locale, { style: 'currency', currency: apartment.currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${numberFormat(locale, { maximumFractionDigits: 2 }).format(amount)} ${apartment.currency}`;
  }
}

export function area(apartment: Apartment, locale: string): string | null {
  const value = apartment.apartmentData.area;
  if (value === undefined) return null;
  return `${numberFormat(locale, { maximumFractionDigits: 1 }).format(value)} ${apartment.apartmentData.areaUnit === 'ft2' ? 'ft²' : 'm²'}`;
}

export const integer = (value: number | undefined, locale: string) => (value === undefined ? null : numberFormat(locale, {}).format(value));

export function fileSize(bytes: number, locale: string): string {
  const units = ['B', 'KB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${numberFormat(locale, { maximumFractionDigits: unit === 0 ? 0 : 1 }).format(value)} ${units[unit]}`;
}

/** A short file type for a download: PDF, ZIP, PNG… from the MIME type. */
export function fileType(mimeType: string): string {
  const known: Record<string, string> = {
    'application/pdf': 'PDF',
    'application/zip': 'ZIP',
    'application/msword': 'DOC',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
    'application/vnd.ms-excel': 'XLS',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  };
  if (known[mimeType]) return known[mimeType];
  const sub = mimeType.split('/')[1] ?? mimeType;
  return sub.replace(/^x-/, '').split(/[+.;]/)[0]!.toUpperCase();
}

/** The link to a home's own page. */
export const homeHref = (path: string, apartmentId: string) => `${path}/homes/${apartmentId}`;
