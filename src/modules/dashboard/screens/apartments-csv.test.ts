import { describe, expect, it } from 'vitest';
import type { Apartment } from '../../apartments/schemas.js';
import { exportCsv, parsePrice, planImport } from './apartments-csv.js';

const buildings = [
  { id: 'b1', name: 'North' },
  { id: 'b2', name: 'South' },
];
const apartment = (name: string, buildingId: string, fields: Partial<Apartment> = {}) =>
  ({
    id: `id-${name}`,
    name,
    buildingId,
    building: { name: buildings.find((b) => b.id === buildingId)!.name },
    status: 'ACTIVE',
    priceCents: 100_000_00,
    currency: 'EUR',
    ...fields,
  }) as unknown as Apartment;

describe('apartments CSV', () => {
  it('reads prices as typed: units, decimals with . or , and spaces as thousands; anything else is not a price', () => {
    expect(parsePrice('245000')).toBe(245_000_00);
    expect(parsePrice('245 000,50')).toBe(245_000_50);
    expect(parsePrice('245000.5')).toBe(245_000_50);
    expect(parsePrice('')).toBeNull();
    for (const bad of ['12x', '-5', '1.234', '1e5', '1,000,000']) expect(parsePrice(bad)).toBeUndefined();
  });

  it('exports what it imports: the same columns, quoted where needed', () => {
    const csv = exportCsv([apartment('A, "corner"', 'b1', { priceCents: 245_000_50 })]);
    expect(csv).toBe('building,name,status,price,currency\nNorth,"A, ""corner""",ACTIVE,245000.50,EUR\n');
    const plan = planImport(csv, buildings, [apartment('A, "corner"', 'b1', { priceCents: 245_000_50 })]);
    expect(plan).toMatchObject({ creates: [], updates: [], unchanged: 1, errors: [] });
  });

  it('plans creates and changes by building and name (case-insensitive), only for the columns given', () => {
    const current = [apartment('A-1', 'b1'), apartment('A-2', 'b2', { status: 'SOLD' })];
    const plan = planImport('Building;Name;Price\nnorth;a-1;99000\nSouth;A-2;100000\nSouth;A-3;\n', buildings, current);
    expect(plan.errors).toEqual([]);
    expect(plan.updates).toEqual([
      { line: 2, building: 'North', name: 'A-1', id: 'id-A-1', fields: { priceCents: 99_000_00 }, summary: ['price 100000 → 99000'] },
    ]);
    expect(plan.creates).toEqual([{ line: 4, building: 'South', name: 'A-3', fields: { priceCents: null }, summary: [] }]);
    expect(plan.unchanged).toBe(1);
  });

  it('lists every bad line with what is wrong, and a line naming the same home twice', () => {
    const plan = planImport(
      'building,name,status,price,currency\nWest,A-1,ACTIVE,1,EUR\nNorth,,SOLDOUT,1,EURO\nNorth,B,ACTIVE,1,EUR\nnorth,b,BOOKED,2,EUR\n',
      buildings,
      [],
    );
    expect(plan.errors.map((e) => e.message)).toEqual([
      'Line 2: there is no building “West” in this estate.',
      'Line 3: the name is empty; the status “SOLDOUT” is not ACTIVE, BOOKED, SOLD or HIDDEN; the currency “EURO” is not a three-letter code such as EUR.',
      'Line 5: it names the same apartment as line 4.',
    ]);
  });

  it('refuses a file without the building and name columns, and one it cannot parse', () => {
    expect(planImport('name,price\nA,1\n', buildings, []).errors[0]!.message).toContain('at least building and name');
    expect(planImport('building,name\n"North,A\n', buildings, []).errors[0]!.message).toContain('not a CSV file');
  });
});
