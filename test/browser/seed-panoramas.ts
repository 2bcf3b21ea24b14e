import sharp from 'sharp';
import { call, upload } from './seed.js';
import { ADMIN_TOKEN } from './server.js';

/**
 * A small estate for the 360° viewer and the nested navigators, made through the HTTP API: a top
 * navigator of two frames (0° and 180°) whose only shape is the building, that building's own navigator
 * ("Tower A", one frame with a shape per home), three homes, and on the first home two panoramas: "Living
 * room" (first by priority; a portal to "Bedroom" straight ahead, a point of interest "Balcony door" with two links) and
 * "Bedroom". The equirectangular images are made here with sharp: the living room red, the bedroom blue.
 */
export interface SeededPanoramas {
  key: string;
  slug: string;
  estateName: string;
  navigatorId: string;
  nestedId: string;
  nestedName: string;
  home: { id: string; name: string };
  livingRoom: { id: string; name: string; src: string };
  bedroom: { id: string; name: string; src: string };
}

const FRAME = { width: 1600, height: 900 };

async function render(colour: string, label: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${FRAME.width}" height="${FRAME.height}">
    <rect width="100%" height="100%" fill="#bcd7ee"/><rect x="500" y="150" width="600" height="600" fill="${colour}"/>
    <text x="60" y="860" font-size="48">${label}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

/** A 2:1 equirectangular image of one dominant colour with a lighter grid (so a turn of the view shows). */
async function equirectangular(fill: string): Promise<Buffer> {
  const width = 2048;
  const height = 1024;
  const lines = Array.from({ length: 16 }, (_, i) => `<rect x="${i * 128}" y="0" width="6" height="${height}" fill="#eee"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${fill}"/>${lines}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

export async function seedPanoramas(base: string): Promise<SeededPanoramas> {
  const key = (await call(base, 'POST', '/api/v1/admin/organizations', ADMIN_TOKEN, { name: 'Harbour Developments' })).apiKey as string;
  const estateName = 'Harbour View';
  const setup = await call(base, 'POST', '/api/v1/estate/setup', key, { name: estateName });
  const estateId = setup.estate.id as string;
  const buildingId = setup.building.id as string;
  const navigatorId = setup.navigator.id as string;

  const names = ['H1', 'H2', 'H3'];
  const bulk = await call(base, 'POST', '/api/v1/apartment/bulk', key, {
    buildingId,
    apartments: names.map((name, i) => ({
      name,
      status: i === 1 ? 'BOOKED' : 'ACTIVE',
      priceCents: 40_000_000 + i * 1_000_000,
      currency: 'EUR',
      showPrice: true,
      apartmentData: { rooms: 2 + i, area: 50 + i * 10, floor: i },
    })),
  });
  const ids = bulk.ids as string[];

  // The top navigator: the building outlined on both frames, leading to its own navigator.
  const nestedName = 'Tower A';
  const nested = await call(base, 'POST', '/api/v1/navigator', key, {
    estateId,
    parentId: navigatorId,
    referenceType: 'building',
    referenceId: buildingId,
    name: nestedName,
  });
  for (const angle of [0, 180]) {
    const asset = await upload(base, key, await render('#8a6d4b', `Harbour View ${angle}°`), 'image/jpeg', `top-${angle}.jpg`);
    const frame = await call(base, 'POST', `/api/v1/navigator/${navigatorId}/images`, key, { assetId: asset.id, angle, name: `Harbour ${angle}°` });
    await call(base, 'PUT', `/api/v1/navigator/${navigatorId}/images/${frame.id}/shapes`, key, [
      { name: 'Tower A', referenceType: 'building', referenceId: buildingId, shape: 'M500 150h600v600h-600z' },
    ]);
  }
  const inside = await upload(base, key, await render('#d9cbb5', 'Tower A'), 'image/jpeg', 'tower.jpg');
  const towerFrame = await call(base, 'POST', `/api/v1/navigator/${nested.id}/images`, key, { assetId: inside.id, angle: 0, name: 'Tower A, south' });
  await call(
    base,
    'PUT',
    `/api/v1/navigator/${nested.id}/images/${towerFrame.id}/shapes`,
    key,
    ids.map((id, i) => ({ name: names[i], referenceType: 'apartment', referenceId: id, shape: `M${520 + i * 190} 300h170v170h-170z` })),
  );

  // Two panoramas of the first home, joined by a portal; the bedroom first, so the living room can name it.
  const bedroomImage = await upload(base, key, await equirectangular('#2848c8'), 'image/jpeg', 'bedroom.jpg');
  const bedroom = await call(base, 'POST', `/api/v1/admin/apartments/${ids[0]}/panoramas`, ADMIN_TOKEN, {
    name: 'Bedroom',
    src: bedroomImage.src,
    priority: 0,
  });
  const livingImage = await upload(base, key, await equirectangular('#c83c28'), 'image/jpeg', 'living.jpg');
  const living = await call(base, 'POST', `/api/v1/admin/apartments/${ids[0]}/panoramas`, ADMIN_TOKEN, {
    name: 'Living room',
    src: livingImage.src,
    priority: 10,
    metadata: { hlookat: 0, vlookat: 0 },
    portals: [{ label: 'To the bedroom', x: 0, y: 0, toPanoramaId: bedroom.id }],
    pois: [{ name: 'Balcony door', x: 20, y: 10, data: { urls: ['https://doors.example/balcony?size=2', 'http://maker.example/'] } }],
  });

  await call(base, 'PUT', `/api/v1/estates/${estateId}/page`, key, { enabled: true });
  const estate = await call(base, 'GET', `/api/v1/estate/${estateId}`, key);
  return {
    key,
    slug: estate.slug as string,
    estateName,
    navigatorId,
    nestedId: nested.id as string,
    nestedName,
    home: { id: ids[0]!, name: names[0]! },
    livingRoom: { id: living.id as string, name: 'Living room', src: livingImage.src },
    bedroom: { id: bedroom.id as string, name: 'Bedroom', src: bedroomImage.src },
  };
}
