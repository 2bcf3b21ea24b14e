/**
 * The arguments `npm run sql` (scripts/sql.ts) calls each repository method with. Simple parameters are
 * found by name (ids, limits, slugs); a method taking a row, a patch or a filter has its own example
 * below, shaped as its service calls it, so the file shows the columns the service really writes.
 */
import { json } from '../src/db/query.js';
import { downloadsRepository } from '../src/modules/addons/downloads/repository.js';
import { galleryRepository } from '../src/modules/addons/gallery/repository.js';
import { investmentRepository } from '../src/modules/addons/investment/repository.js';
import { mapRepository } from '../src/modules/addons/map/repository.js';
import { APARTMENT_DEFAULTS, apartmentsRepository } from '../src/modules/apartments/repository.js';
import { assetsRepository } from '../src/modules/assets/repository.js';
import { buildingsRepository } from '../src/modules/buildings/repository.js';
import { peopleRepository } from '../src/modules/dashboard/people/repository.js';
import { domainsRepository } from '../src/modules/domains/repository.js';
import { estatesRepository } from '../src/modules/estates/repository.js';
import { inquiriesRepository } from '../src/modules/inquiries/repository.js';
import { defaultNavigatorOptions, navigatorsRepository } from '../src/modules/navigators/repository.js';
import { organizationsRepository } from '../src/modules/organizations/repository.js';
import { PAGE_DEFAULTS, pagesRepository } from '../src/modules/pages/repository.js';
import { panoramasRepository } from '../src/modules/panoramas/repository.js';
import { usersRepository } from '../src/modules/users/repository.js';
import { InStatementEvent } from '../src/modules/webhooks/in-statement.js';
import { webhooksRepository } from '../src/modules/webhooks/repository.js';

/** Every repository, by the name its file in src/queries/ gets. */
export const REPOSITORIES: Record<string, Record<string, unknown>> = {
  apartments: apartmentsRepository,
  assets: assetsRepository,
  buildings: buildingsRepository,
  estates: estatesRepository,
  inquiries: inquiriesRepository,
  navigators: navigatorsRepository,
  organizations: organizationsRepository,
  pages: pagesRepository,
  domains: domainsRepository,
  panoramas: panoramasRepository,
  people: peopleRepository,
  users: usersRepository,
  webhooks: webhooksRepository,
  'addons-downloads': downloadsRepository,
  'addons-gallery': galleryRepository,
  'addons-investment': investmentRepository,
  'addons-map': mapRepository,
};

const uuid = (n: number) => `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`;
const ORG = uuid(1);
const NOW = '2026-01-01T00:00:00.000Z';
const PREFIXES = { original: 'https://files.example.com/', files: 'https://service.example.com/files/' };

/** Parameters every method names alike. */
const BY_NAME: Record<string, unknown> = {
  organizationId: ORG,
  hostname: 'homes.agency.example',
  id: uuid(2),
  estateId: uuid(3),
  apartmentId: uuid(4),
  buildingId: uuid(5),
  navigatorId: uuid(6),
  frameId: uuid(7),
  parentId: uuid(8),
  referenceId: uuid(9),
  sectionId: uuid(10),
  endpointId: uuid(11),
  keyId: uuid(12),
  userId: uuid(13),
  membershipId: uuid(14),
  intentId: uuid(15),
  ids: [uuid(20), uuid(21)],
  userIds: [uuid(22)],
  estateIds: [uuid(3)],
  externalIds: ['crm-1', 'crm-2'],
  keys: ['o/ab/cdef'],
  limit: 50,
  offset: 0,
  hours: 24,
  withinSeconds: 60,
  angle: 90,
  basePosition: 0,
  leaseMs: 15_000,
  hash: 'sha256-hex',
  slug: 'harbour-view',
  base: 'harbour-view',
  sealed: 'sealed-secret',
  reason: 'gone',
  worker: 'instance-1',
  status: 'CONTACTED',
  title: 'Title',
  table: 'apartments',
  cursor: undefined,
  srcPrefix: PREFIXES,
  prefixes: PREFIXES,
};

const apartment = {
  ...APARTMENT_DEFAULTS,
  id: uuid(4),
  organizationId: ORG,
  buildingId: uuid(5),
  estateId: uuid(3),
  name: 'A-1',
  description: null,
  priceCents: 100_000_00,
  currency: 'EUR',
  externalId: null,
  source: null,
  lastSynchronizedAt: null,
  virtualTourUrl: null,
  panoramaId: null,
  externalUrl: null,
};
const listFilter = { estateId: uuid(3), sort: 'name', offset: 0, limit: null };
const addonRow = { id: uuid(2), organizationId: ORG, estateId: uuid(3), position: 0 };

/** Arguments after `db` of the methods whose parameters are not all named alike. */
const EXAMPLES: Record<string, unknown[]> = {
  'apartments.insertMany': [[apartment]],
  'apartments.createWithBuilding': [apartment, new InStatementEvent(ORG, 'apartment.created', 1)],
  'apartments.listJson': [ORG, listFilter],
  'apartments.listStatement': [ORG, listFilter],
  'apartments.update': [ORG, uuid(4), { name: 'A-2', priceCents: 1 }],
  'apartments.lockByKeys': [ORG, [uuid(4)], ['crm-1']],
  'apartments.updateMany': [ORG, [{ ...apartment, changeXid: '1', createdAt: NOW, updatedAt: NOW }]],
  'apartments.stampSynchronized': [ORG, [{ id: uuid(4), lastSynchronizedAt: NOW }]],
  'apartments.changes': [ORG, undefined, 500],
  'assets.insert': [
    {
      id: uuid(2),
      organizationId: ORG,
      name: 'render.jpg',
      mimeType: 'image/jpeg',
      sizeBytes: 1,
      storageKey: 'o/ab/cdef',
      sha256: 'hex',
      imageState: 'pending',
    },
    uuid(15),
  ],
  'assets.list': [ORG, { mimePrefix: 'image/', unused: true, publicOnly: true, offset: 0, limit: 50 }],
  'assets.usage': [ORG, uuid(2), true],
  'assets.usageCounts': [ORG, [uuid(2), uuid(3)]],
  'assets.pendingImages': [200],
  'assets.finishImage': [ORG, uuid(2), { width: 1, height: 1, hasLocation: false, placeholder: null, variants: json([]), imageState: 'ready' }],
  'buildings.insert': [{ id: uuid(5), organizationId: ORG, estateId: uuid(3), name: 'B', description: null, features: [], source: null }],
  'buildings.pageOfEstate': [ORG, uuid(3), 0, 50],
  'buildings.update': [ORG, uuid(5), { name: 'B2' }],
  'estates.insert': [{ id: uuid(3), organizationId: ORG, name: 'E', slug: 'e', description: null }],
  'estates.list': [ORG, { buildingId: uuid(5), offset: 0, limit: 50 }],
  'estates.update': [ORG, uuid(3), { name: 'E2' }],
  'estates.updateAnyOrganization': [uuid(3), { isPreview: false }],
  'inquiries.insert': [
    {
      id: uuid(2),
      organizationId: ORG,
      estateId: uuid(3),
      name: 'N',
      email: 'n@example.com',
      phoneNumber: null,
      info: null,
      apartmentIds: [uuid(4)],
      referralUserId: null,
    },
  ],
  'inquiries.list': [ORG, { estateId: uuid(3), status: ['NEW'], q: '555' }, '-createdAt', 0, 50],
  'inquiries.count': [ORG, { estateId: uuid(3), status: ['NEW'], q: 'ann' }],
  'inquiries.changes': [ORG, undefined, 500],
  'navigators.insert': [
    {
      id: uuid(6),
      organizationId: ORG,
      estateId: uuid(3),
      parentId: null,
      referenceId: uuid(3),
      referenceType: 'estate',
      type: 'image',
      seoTitle: 'E',
      options: defaultNavigatorOptions('E'),
    },
  ],
  'navigators.update': [ORG, uuid(6), { seoTitle: 'T', options: defaultNavigatorOptions('E') }],
  'navigators.insertFrame': [
    { id: uuid(7), organizationId: ORG, navigatorId: uuid(6), assetId: uuid(2), angle: 0, name: 'F', isMarketingStop: false, highlightLabel: null },
  ],
  'navigators.updateFrame': [ORG, uuid(7), { angle: 90, name: 'F2' }],
  'navigators.replaceShapes': [
    ORG,
    uuid(7),
    [{ id: uuid(30), position: 0, name: null, description: null, apartment_id: uuid(4), building_id: null, shape: 'M0 0Z', max_x: 1, max_y: 1 }],
  ],
  'navigators.replacePois': [ORG, uuid(7), [{ id: uuid(31), position: 0, x: 1, y: 1, type: 'info', panorama_id: null, starting_panorama_id: null }]],
  'navigators.ofEstate': ['apartments', ORG, uuid(3), [uuid(4)]],
  'navigators.panoramasOf': [ORG, [uuid(16)]],
  'organizations.insert': [{ id: ORG, name: 'O', featureFlags: [] }],
  'organizations.list': [0, 50],
  'organizations.insertKey': [
    { id: uuid(12), organizationId: ORG, name: 'default', hash: 'sha256-hex', prefix: 'epk_abcd', scopes: ['read'], expiresAt: null },
  ],
  'people.findUserByEmail': ['Person@Example.com'],
  'people.insertUser': [{ id: uuid(13), email: 'person@example.com', firstName: 'F', lastName: 'L', passwordHash: '$argon2id$…' }],
  'people.setAccount': [uuid(13), { firstName: 'F', lastName: 'L', passwordHash: '$argon2id$…' }],
  'people.setRole': [ORG, uuid(14), 'editor'],
  'people.upsertMember': [{ id: uuid(14), organizationId: ORG, userId: uuid(13), role: 'admin' }],
  'people.insertInvitation': [
    { id: uuid(2), organizationId: ORG, email: 'person@example.com', role: 'admin', tokenHash: 'sha256-hex', invitedBy: null, expiresAt: NOW },
  ],
  'people.findOpenInvitation': ['sha256-hex'],
  'people.insertSession': [{ id: uuid(2), userId: uuid(13), tokenHash: 'sha256-hex', expiresAt: NOW }],
  'people.findSession': ['sha256-hex', 604_800],
  'people.countFailures': [['account:person@example.com', 'ip:203.0.113.9'], 900],
  'people.recordFailure': [['account:person@example.com', 'ip:203.0.113.9']],
  'people.pruneFailures': [900],
  'pages.upsert': [ORG, uuid(3), { ...PAGE_DEFAULTS }],
  'domains.insert': [{ hostname: 'homes.agency.example', estateId: uuid(3), organizationId: ORG, txtValue: 'pps-verification=x' }],
  'domains.update': [ORG, 'homes.agency.example', { status: 'verified', checkedAt: '2026-01-01T00:00:00Z', failingSince: null }],
  'domains.due': ['2026-01-01T00:00:00Z', 100],
  'panoramas.insert': [
    {
      id: uuid(16),
      organizationId: ORG,
      apartmentId: uuid(4),
      name: 'P',
      assetId: uuid(2),
      metadata: {},
      comments: [],
      portals: [],
      pois: [],
    },
  ],
  'users.insert': [ORG, { id: uuid(13), email: 'u@example.com', name: 'U', role: 'ADMIN' }, uuid(14)],
  'webhooks.insert': [{ id: uuid(11), organizationId: ORG, url: 'https://hooks.example.com/', events: ['*'], secret: 'sealed', enabled: true }],
  'webhooks.update': [ORG, uuid(11), { enabled: false }],
  'webhooks.deliveries': [ORG, uuid(11), 50, { createdAt: NOW, id: uuid(40) }],
  'webhooks.queueAttempt': [{ id: uuid(40), organizationId: ORG, endpointId: uuid(11), eventId: uuid(41), dueInMs: 5_000 }],
  'webhooks.claim': ['instance-1', 20, 15_000],
  'webhooks.finish': ['instance-1', ORG, uuid(40), { status: 'failed', responseStatus: 500, error: 'HTTP 500', durationMs: 12 }],
  'webhooks.finishSucceeded': ['instance-1', [{ id: uuid(40), organizationId: ORG, responseStatus: 200, durationMs: 12 }]],
  'addons-downloads.insertGroup': [{ ...addonRow, title: 'Plans' }],
  'addons-downloads.updateGroup': [ORG, uuid(2), 'Plans'],
  'addons-downloads.insertItem': [{ ...addonRow, groupId: uuid(10), assetId: uuid(2), label: 'PDF' }],
  'addons-downloads.updateItem': [ORG, uuid(2), { label: 'PDF', assetId: uuid(2) }],
  'addons-gallery.insertSection': [{ ...addonRow, title: 'Views', description: null }],
  'addons-gallery.updateSection': [ORG, uuid(2), { title: 'Views', description: null }],
  'addons-gallery.insertItem': [{ ...addonRow, sectionId: uuid(10), assetId: uuid(2), caption: null }],
  'addons-gallery.updateItem': [ORG, uuid(2), { caption: 'C' }],
  'addons-investment.insertSection': [{ ...addonRow, title: 'Progress', description: null }],
  'addons-investment.updateSection': [ORG, uuid(2), { title: 'Progress', description: null }],
  'addons-investment.insertFile': [{ ...addonRow, sectionId: uuid(10), assetId: uuid(2), label: 'Report' }],
  'addons-investment.updateFile': [ORG, uuid(2), { label: 'Report' }],
  'addons-map.upsertConfig': [ORG, uuid(3), { lat: 52.2, lng: 21, zoom: 14 }],
  'addons-map.insertPoi': [{ id: uuid(2), organizationId: ORG, estateId: uuid(3), position: 0, category: 'school', label: 'School', lat: 52.2, lng: 21 }],
  'addons-map.updatePoi': [ORG, uuid(2), { label: 'School' }],
};

/** The parameter names of a function after the first (`db`), as its source writes them. */
function parameterNames(fn: (...a: unknown[]) => unknown): string[] {
  const text = fn.toString();
  const open = text.indexOf('(');
  let depth = 0;
  let close = open;
  for (let i = open; i < text.length; i++) {
    if ('([{'.includes(text[i]!)) depth++;
    if (')]}'.includes(text[i]!)) depth--;
    if (depth === 0) {
      close = i;
      break;
    }
  }
  const names: string[] = [];
  let current = '';
  depth = 0;
  for (const ch of text.slice(open + 1, close)) {
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      names.push(current);
      current = '';
    } else current += ch;
  }
  if (current.trim()) names.push(current);
  return names.slice(1).map((n) => n.split('=')[0]!.replace('...', '').trim());
}

/** The example arguments (after `db`) of `repository.method`. */
export function argumentsFor(repository: string, method: string, fn: (...a: unknown[]) => unknown): unknown[] {
  const example = EXAMPLES[`${repository}.${method}`];
  if (example) return example;
  const text = fn.toString();
  return parameterNames(fn).map((name) => {
    if (name in BY_NAME) return BY_NAME[name];
    // A parameter with a default takes it.
    if (new RegExp(`\\b${name}\\s*=`).test(text.slice(0, text.indexOf(')')))) return undefined;
    throw new Error(`${repository}.${method}: no example for parameter "${name}"; add one to scripts/sql-examples.ts`);
  });
}
