import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { APARTMENT_STATUSES, type Apartment } from '../../apartments/schemas.js';

/** The columns of the apartments CSV, exported and imported alike. */
export const CSV_COLUMNS = ['building', 'name', 'status', 'price', 'currency'] as const;
/** Rows an import may hold (the API's bulk limit). */
export const MAX_IMPORT_ROWS = 5000;

/** A price as typed (major units, `.` or `,` as decimal mark, spaces as thousands) → cents; undefined when not a price. */
export function parsePrice(text: string): number | null | undefined {
  const t = text.trim().replace(/[\s\u00a0_]/g, '');
  if (t === '') return null;
  const normal = /^\d+,\d{1,2}$/.test(t) ? t.replace(',', '.') : t;
  if (!/^\d{1,13}(\.\d{1,2})?$/.test(normal)) return undefined;
  return Math.round(Number(normal) * 100);
}

export const formatPrice = (cents: number | null) => (cents === null ? '' : (cents / 100).toFixed(cents % 100 === 0 ? 0 : 2));

export function exportCsv(apartments: readonly Apartment[]): string {
  return stringify(
    apartments.map((a) => [a.building.name, a.name, a.status, formatPrice(a.priceCents), a.currency ?? '']),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}

export interface ImportLine {
  line: number;
  building: string;
  name: string;
  status?: string;
  priceCents?: number | null;
  currency?: string | null;
}

export interface PlannedChange {
  line: number;
  building: string;
  name: string;
  /** The existing apartment, when the line changes one. */
  id?: string;
  fields: { status?: string; priceCents?: number | null; currency?: string | null };
  /** What changes, in words, for the preview ("price 250,000 → 245,000"). */
  summary: string[];
}

export interface ImportPlan {
  creates: PlannedChange[];
  updates: PlannedChange[];
  unchanged: number;
  errors: Array<{ line: number; message: string }>;
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * What importing `text` would do to an estate: each line names an apartment by building and name; a
 * known one is changed (only the columns given), an unknown one created. Nothing is written here: the
 * screen shows this plan, then applies the same plan after confirmation. Any error blocks the import.
 */
export function planImport(
  text: string,
  buildings: Array<{ id: string; name: string }>,
  apartments: readonly Apartment[],
): ImportPlan & { lines: ImportLine[] } {
  const plan: ImportPlan & { lines: ImportLine[] } = { creates: [], updates: [], unchanged: 0, errors: [], lines: [] };
  let records: string[][];
  try {
    records = parse(text.replace(/^\uFEFF/, ''), { skip_empty_lines: true, relax_column_count: true, trim: true, delimiter: [',', ';'] }) as string[][];
  } catch (err) {
    plan.errors.push({ line: (err as { lines?: number }).lines ?? 1, message: 'This is not a CSV file the dashboard can read (check its quotes).' });
    return plan;
  }
  const header = (records.shift() ?? []).map(norm);
  const at = Object.fromEntries(CSV_COLUMNS.map((c) => [c, header.indexOf(c)])) as Record<(typeof CSV_COLUMNS)[number], number>;
  if (at.building < 0 || at.name < 0) {
    plan.errors.push({ line: 1, message: 'The first line must name the columns, with at least building and name (export a CSV to see the format).' });
    return plan;
  }
  if (records.length > MAX_IMPORT_ROWS) {
    plan.errors.push({ line: MAX_IMPORT_ROWS + 2, message: `A file holds at most ${MAX_IMPORT_ROWS} apartments.` });
    return plan;
  }
  const byBuilding = new Map(buildings.map((b) => [norm(b.name), b]));
  const existing = new Map(apartments.map((a) => [`${a.buildingId}\n${norm(a.name)}`, a]));
  const seen = new Map<string, number>();
  records.forEach((record, i) => {
    const line = i + 2;
    const cell = (c: (typeof CSV_COLUMNS)[number]) => (at[c] >= 0 ? (record[at[c]] ?? '') : undefined);
    const buildingName = cell('building') ?? '';
    const name = cell('name') ?? '';
    const problems: string[] = [];
    const building = byBuilding.get(norm(buildingName));
    if (!building) problems.push(`there is no building “${buildingName}” in this estate`);
    if (!name.trim()) problems.push('the name is empty');
    else if (name.trim().length > 200) problems.push('the name is longer than 200 characters');
    const fields: PlannedChange['fields'] = {};
    const status = cell('status');
    if (status !== undefined && status !== '') {
      const upper = status.toUpperCase();
      if (!(APARTMENT_STATUSES as readonly string[]).includes(upper)) problems.push(`the status “${status}” is not ACTIVE, BOOKED, SOLD or HIDDEN`);
      else fields.status = upper;
    }
    const price = cell('price');
    if (price !== undefined) {
      const cents = parsePrice(price);
      if (cents === undefined) problems.push(`the price “${price}” is not a number such as 245000 or 245000.50`);
      else fields.priceCents = cents;
    }
    const currency = cell('currency');
    if (currency !== undefined) {
      if (currency !== '' && !/^[A-Za-z]{3}$/.test(currency)) problems.push(`the currency “${currency}” is not a three-letter code such as EUR`);
      else fields.currency = currency === '' ? null : currency.toUpperCase();
    }
    const key = building ? `${building.id}\n${norm(name)}` : '';
    if (building && name.trim()) {
      const first = seen.get(key);
      if (first !== undefined) problems.push(`it names the same apartment as line ${first}`);
      else seen.set(key, line);
    }
    if (problems.length > 0) {
      plan.errors.push({ line, message: `Line ${line}: ${problems.join('; ')}.` });
      return;
    }
    const current = existing.get(key);
    if (!current) {
      plan.creates.push({ line, building: building!.name, name: name.trim(), fields, summary: [] });
      return;
    }
    const summary: string[] = [];
    const changed: PlannedChange['fields'] = {};
    if (fields.status !== undefined && fields.status !== current.status) {
      changed.status = fields.status;
      summary.push(`status ${current.status} → ${fields.status}`);
    }
    if (fields.priceCents !== undefined && fields.priceCents !== current.priceCents) {
      changed.priceCents = fields.priceCents;
      summary.push(`price ${formatPrice(current.priceCents) || 'none'} → ${formatPrice(fields.priceCents) || 'none'}`);
    }
    if (fields.currency !== undefined && fields.currency !== current.currency) {
      changed.currency = fields.currency;
      summary.push(`currency ${current.currency ?? 'none'} → ${fields.currency ?? 'none'}`);
    }
    if (summary.length === 0) plan.unchanged++;
    else plan.updates.push({ line, building: building!.name, name: current.name, id: current.id, fields: changed, summary });
  });
  return plan;
}
