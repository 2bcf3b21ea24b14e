/**
 * What the service holds now, read through the typed client, and the declared files measured: the two
 * inputs of a plan. Reads only; nothing here writes.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import path from 'node:path';
import { type PublisherClient, type Schemas, must } from '../../../clients/typescript/src/index.js';
import type { Manifest, ManifestAsset } from './manifest.js';

export type Estate = Schemas['Estate'];
export type Apartment = Schemas['Apartment'];
export type Asset = Schemas['Asset'];
export type InvestmentDocument = Schemas['InvestmentDocument'];
export type GalleryDocument = Schemas['GalleryDocument'];
export type MapDocument = Schemas['MapDocument'];
export type DownloadsDocument = Schemas['DownloadsDocument'];
export type Navigator = Schemas['Navigator'];

/** A declared file, measured: where it comes from and its SHA-256. */
export interface LocalAsset {
  name: string;
  /** Shown in the plan: the path as written, or the URL. */
  origin: string;
  sha256: string;
  sizeBytes: number;
  /** A local path to upload from, or the downloaded bytes of a URL. */
  source: string | Uint8Array;
  fileName: string;
  assetName: string | undefined;
}

export interface CurrentState {
  estate: Estate | undefined;
  /** The organization's assets by SHA-256 (the first of equal files). */
  assetsByHash: Map<string, Asset>;
  /** The organization's apartments by externalId. */
  apartments: Map<string, Apartment>;
  /** The estate's apartments (with or without externalId): navigator shapes may name one by its name. */
  estateApartments: Apartment[];
  investment: InvestmentDocument | undefined;
  gallery: GalleryDocument | undefined;
  map: MapDocument | undefined;
  downloads: DownloadsDocument | undefined;
  /** The estate's navigators (its first, with the nested ones inside), when the file declares a navigator. */
  navigators: Navigator[] | undefined;
}

/** The files may not exceed what the service takes by URL. */
const MAX_DOWNLOAD_BYTES = 100 * 1024 * 1024;

async function hashFile(file: string): Promise<{ sha256: string; sizeBytes: number }> {
  const hash = createHash('sha256');
  let sizeBytes = 0;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    sizeBytes += chunk.length;
  }
  return { sha256: hash.digest('hex'), sizeBytes };
}

async function download(url: string): Promise<Uint8Array> {
  const response = await fetch(url, { redirect: 'follow', signal: AbortSignal.timeout(60_000) });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.length;
    if (size > MAX_DOWNLOAD_BYTES) throw new Error(`${url} is larger than 100 MB`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Hashes every declared file (downloading URLs once); a file that cannot be read stops before any write. */
export async function measureAssets(manifest: Manifest, baseDir: string): Promise<Map<string, LocalAsset>> {
  const out = new Map<string, LocalAsset>();
  for (const [name, declared] of Object.entries(manifest.assets ?? {}) as Array<[string, ManifestAsset]>) {
    if ('path' in declared) {
      const file = path.resolve(baseDir, declared.path);
      const { sha256, sizeBytes } = await hashFile(file);
      out.set(name, { name, origin: declared.path, sha256, sizeBytes, source: file, fileName: path.basename(file), assetName: declared.name });
    } else {
      let bytes: Uint8Array;
      try {
        bytes = await download(declared.url);
      } catch (err) {
        throw new Error(`assets.${name}: could not download ${declared.url}: ${(err as Error).message}`);
      }
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const fileName = decodeURIComponent(new URL(declared.url).pathname.split('/').pop() || '') || 'download';
      out.set(name, { name, origin: declared.url, sha256, sizeBytes: bytes.length, source: bytes, fileName, assetName: declared.name });
    }
  }
  return out;
}

/** Every item of an offset/limit list, through the client's page iterator. */
async function all<T>(client: PublisherClient, page: (offset: number, limit: number) => Promise<readonly T[]>, pageSize: number): Promise<T[]> {
  const items: T[] = [];
  for await (const item of client.pages(page, pageSize)) items.push(item);
  return items;
}

export async function readState(client: PublisherClient, manifest: Manifest): Promise<CurrentState> {
  const { api } = client;
  const estates = await all(client, (offset, limit) => must(api.GET('/api/v1/estate', { params: { query: { offset, limit } } })), 1000);
  const found = estates.find((e) => e.slug === manifest.estate.slug);
  const estate = found && (await must(api.GET('/api/v1/estate/{id}', { params: { path: { id: found.id } } })));

  const assetsByHash = new Map<string, Asset>();
  if (manifest.assets && Object.keys(manifest.assets).length > 0) {
    const assets = await all(client, (offset, limit) => must(api.GET('/api/v1/asset', { params: { query: { offset, limit } } })), 1000);
    // The list is newest first: of equal files the oldest wins, so uploading a copy later changes nothing here.
    for (const asset of assets) assetsByHash.set(asset.sha256, asset);
  }

  const apartments = new Map<string, Apartment>();
  const estateApartments: Apartment[] = [];
  const shapes = [manifest.navigator, ...(manifest.navigator?.nested ?? [])].some((n) => (n?.frames ?? []).some((f) => (f.shapes ?? []).length > 0));
  if (shapes || (manifest.buildings ?? []).some((b) => (b.apartments ?? []).length > 0)) {
    const list = await all(
      client,
      (offset, limit) => must(api.GET('/api/v1/apartment', { params: { query: { offset, limit, sort: 'createdAt' } } })).then((page) => page.items),
      10_000,
    );
    for (const apartment of list) if (apartment.externalId !== null) apartments.set(apartment.externalId, apartment);
    estateApartments.push(...list.filter((a) => a.estateId === estate?.id));
  }

  const addons = manifest.addons ?? {};
  const estateId = estate?.id;
  const read = async <T>(declared: unknown, get: (path: { estateId: string }) => Promise<T>) =>
    declared !== undefined && estateId !== undefined ? get({ estateId }) : undefined;
  return {
    estate,
    assetsByHash,
    apartments,
    estateApartments,
    investment: await read(addons.investment, (p) => must(api.GET('/api/v1/estates/{estateId}/investment', { params: { path: p } }))),
    gallery: await read(addons.gallery, (p) => must(api.GET('/api/v1/estates/{estateId}/gallery', { params: { path: p } }))),
    map: await read(addons.map, (p) => must(api.GET('/api/v1/estates/{estateId}/map', { params: { path: p } }))),
    downloads: await read(addons.downloads, (p) => must(api.GET('/api/v1/estates/{estateId}/downloads', { params: { path: p } }))),
    navigators: await read(manifest.navigator, (p) => must(api.GET('/api/v1/navigator', { params: { query: { estateId: p.estateId } } }))),
  };
}
