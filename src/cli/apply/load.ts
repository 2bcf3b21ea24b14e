/**
 * Reads a project file (YAML, or JSON, which is YAML too) and refuses a bad one before any request:
 * every mistake is named by file, line and column, and by its path in the document.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { Value, type ValueError, ValueErrorType } from '@sinclair/typebox/value';
import { LineCounter, type Node, isNode, parseDocument } from 'yaml';
import { normalisePath } from '../../modules/navigators/path.js';
import { normaliseColour } from '../../modules/navigators/theme.js';
import type { ManifestNavigator, ManifestNested } from './manifest-navigator.js';
import { Manifest } from './manifest.js';

/** The file is not a valid project: nothing was sent. */
export class ManifestError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ManifestError';
  }
}

export interface LoadedManifest {
  manifest: Manifest;
  /** The directory local asset paths are relative to. */
  baseDir: string;
  file: string;
}

type Segment = string | number;

const showPath = (segments: readonly Segment[]) =>
  segments.reduce<string>((out, s) => (typeof s === 'number' ? `${out}[${s}]` : out ? `${out}.${s}` : String(s)), '') || '(the document)';

/** Reads, parses and checks the project file; throws ManifestError naming every mistake found. */
export async function loadManifest(file: string, text: string): Promise<LoadedManifest> {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const where = (offset: number | undefined) => {
    if (offset === undefined) return file;
    const { line, col } = lines.linePos(offset);
    return `${file}:${line}:${col}`;
  };
  if (doc.errors.length > 0) throw new ManifestError(doc.errors.map((e) => `${where(e.pos[0])}: ${e.message.split('\n')[0]}`));

  /** The nearest node the path reaches, for its line. */
  const locate = (segments: readonly Segment[]) => {
    for (let n = segments.length; n >= 0; n--) {
      const node = doc.getIn(segments.slice(0, n), true) as Node | undefined;
      if (isNode(node) && node.range) return where(node.range[0]);
    }
    return file;
  };
  const problems: string[] = [];
  const problem = (segments: readonly Segment[], message: string) => problems.push(`${locate(segments)}: ${showPath(segments)}: ${message}`);

  const value: unknown = doc.toJS();
  const seen = new Set<string>();
  for (const error of Value.Errors(Manifest, value)) {
    const segments = error.path
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
    const key = showPath(segments);
    if (seen.has(key)) continue; // one message per place: a union reports each of its branches
    seen.add(key);
    problem(segments, explain(error));
  }
  if (problems.length > 0) throw new ManifestError(problems);

  const manifest = normalized(value as Manifest);
  const baseDir = path.dirname(path.resolve(file));
  await checkReferences(manifest, baseDir, problem);
  if (problems.length > 0) throw new ManifestError(problems);
  return { manifest, baseDir, file };
}

/**
 * The file as the service will store it: names, titles and labels trimmed (the service trims them), an
 * empty file label left out (the service then uses the asset's name) and an empty distance label null.
 * Compared in this form, a value the service rewrites never shows as a change on every run.
 */
function normalized(manifest: Manifest): Manifest {
  const trimmed = <T extends Record<string, unknown>>(item: T, ...keys: Array<keyof T & string>): T => {
    const copy: Record<string, unknown> = { ...item };
    for (const key of keys) if (typeof copy[key] === 'string') copy[key] = (copy[key] as string).trim();
    return copy as T;
  };
  const labelled = <T extends { label?: string | undefined }>(item: T): T => {
    const { label, ...rest } = item;
    const clean = label?.trim();
    return (clean ? { ...rest, label: clean } : rest) as T;
  };
  const { investment, gallery, map, downloads } = manifest.addons ?? {};
  return {
    ...manifest,
    estate: trimmed(manifest.estate, 'name'),
    ...(manifest.buildings && {
      buildings: manifest.buildings.map((b) => ({
        ...trimmed(b, 'name'),
        ...(b.apartments && { apartments: b.apartments.map((a) => trimmed(a, 'name')) }),
      })),
    }),
    ...(manifest.addons && {
      addons: {
        ...(investment && {
          investment: {
            ...investment,
            ...(investment.sections && {
              sections: investment.sections.map((s) => ({ ...trimmed(s, 'title'), ...(s.files && { files: s.files.map(labelled) }) })),
            }),
          },
        }),
        ...(gallery && { gallery: { ...gallery, ...(gallery.sections && { sections: gallery.sections.map((s) => trimmed(s, 'title')) }) } }),
        ...(map && {
          map: {
            ...map,
            ...(map.pois && {
              pois: map.pois.map((p) => {
                const poi = trimmed(p, 'label', 'customDistanceLabel');
                return typeof poi.customDistanceLabel === 'string' && poi.customDistanceLabel === '' ? { ...poi, customDistanceLabel: null } : poi;
              }),
            }),
          },
        }),
        ...(downloads && {
          downloads: {
            ...downloads,
            ...(downloads.groups && {
              groups: downloads.groups.map((g) => ({ ...trimmed(g, 'title'), ...(g.items && { items: g.items.map(labelled) }) })),
            }),
          },
        }),
      },
    }),
  };
}

/** A validation error in words: a nullable field's error is the non-null variant's, a pattern names what it wants. */
function explain(error: ValueError): string {
  if (error.type === ValueErrorType.Union) {
    const variants = error.errors.map((it) => it.First()).filter((e): e is ValueError => e !== undefined);
    const meaningful = variants.filter((e) => e.schema.type !== 'null');
    if (meaningful.length === 1 && meaningful[0]) return explain(meaningful[0]);
    const members = meaningful.map((e) => e.schema.const);
    if (members.length > 1 && members.every((m) => typeof m === 'string')) return `expected one of ${members.join(', ')}`;
    if (meaningful.length > 1) {
      const described = typeof error.schema.description === 'string' ? ` (${error.schema.description.split('.')[0]})` : '';
      return `matches none of the forms it may take${described}`;
    }
  }
  if (error.type === ValueErrorType.StringPattern && typeof error.schema.description === 'string') return `${error.message} (${error.schema.description})`;
  return error.message;
}

/** What the schema cannot say: names that must be unique, assets that must exist. */
async function checkReferences(manifest: Manifest, baseDir: string, problem: (segments: Segment[], message: string) => void): Promise<void> {
  const assets = manifest.assets ?? {};
  for (const [name, asset] of Object.entries(assets)) {
    if (!('path' in asset)) continue;
    const file = path.resolve(baseDir, asset.path);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) problem(['assets', name, 'path'], `no file at ${file}`);
  }
  const known = (segments: Segment[], name: string) => {
    if (!Object.hasOwn(assets, name)) problem(segments, `"${name}" is not an entry of assets`);
  };
  const unique = <T>(list: readonly T[] | undefined, key: (item: T) => string, segments: Segment[], what: string) => {
    const first = new Map<string, number>();
    (list ?? []).forEach((item, i) => {
      const k = key(item);
      const earlier = first.get(k);
      if (earlier === undefined) first.set(k, i);
      else problem([...segments, i], `${what} "${k}" repeats ${showPath([...segments, earlier])}`);
    });
  };

  const buildings = manifest.buildings ?? [];
  unique(buildings, (b) => b.name.toLowerCase(), ['buildings'], 'building name');
  const externalIds = new Map<string, string>();
  buildings.forEach((building, b) => {
    (building.apartments ?? []).forEach((apartment, i) => {
      const at: Segment[] = ['buildings', b, 'apartments', i];
      const earlier = externalIds.get(apartment.externalId);
      if (earlier) problem([...at, 'externalId'], `externalId "${apartment.externalId}" repeats ${earlier}`);
      else externalIds.set(apartment.externalId, showPath(at));
      (apartment.assets ?? []).forEach((name, k) => known([...at, 'assets', k], name));
      unique(apartment.assets, (name) => name, [...at, 'assets'], 'asset');
    });
    unique(building.apartments, (a) => a.name.toLowerCase(), ['buildings', b, 'apartments'], 'apartment name');
  });

  const addons = manifest.addons ?? {};
  if (addons.investment) {
    const sections = addons.investment.sections ?? [];
    unique(sections, (s) => s.title, ['addons', 'investment', 'sections'], 'section title');
    sections.forEach((section, s) => {
      const at: Segment[] = ['addons', 'investment', 'sections', s, 'files'];
      (section.files ?? []).forEach((f, i) => known([...at, i, 'asset'], f.asset));
      unique(section.files, (f) => f.asset, at, 'asset');
    });
  }
  if (addons.gallery) {
    const sections = addons.gallery.sections ?? [];
    unique(sections, (s) => s.title, ['addons', 'gallery', 'sections'], 'section title');
    const used = new Map<string, string>();
    const item = (at: Segment[], name: string) => {
      known([...at, 'asset'], name);
      const earlier = used.get(name);
      if (earlier) problem([...at, 'asset'], `asset "${name}" is already in the gallery at ${earlier}`);
      else used.set(name, showPath(at));
    };
    sections.forEach((section, s) => {
      (section.items ?? []).forEach((it, i) => item(['addons', 'gallery', 'sections', s, 'items', i], it.asset));
    });
    (addons.gallery.items ?? []).forEach((it, i) => item(['addons', 'gallery', 'items', i], it.asset));
  }
  if (addons.map) {
    if (addons.map.logo !== undefined) known(['addons', 'map', 'logo'], addons.map.logo);
    unique(addons.map.pois, (p) => p.label, ['addons', 'map', 'pois'], 'point label');
  }
  if (manifest.navigator) checkNavigator(manifest.navigator, known, unique, problem);
  if (addons.downloads) {
    const groups = addons.downloads.groups ?? [];
    unique(groups, (g) => g.title, ['addons', 'downloads', 'groups'], 'group title');
    groups.forEach((group, g) => {
      const at: Segment[] = ['addons', 'downloads', 'groups', g, 'items'];
      (group.items ?? []).forEach((it, i) => known([...at, i, 'asset'], it.asset));
      unique(group.items, (it) => it.asset, at, 'asset');
    });
  }
}

/**
 * A navigator's frames name declared files, one per angle; nested navigators one per building; theme
 * values are colours and shapes path data (the service's own parsers), so a bad value stops the run
 * before anything is sent. Whether a point lies inside the overlay is the service's to say.
 */
function checkNavigator(
  navigator: ManifestNavigator,
  known: (segments: Segment[], name: string) => void,
  unique: <T>(list: readonly T[] | undefined, key: (item: T) => string, segments: Segment[], what: string) => void,
  problem: (segments: Segment[], message: string) => void,
): void {
  const one = (n: ManifestNavigator | ManifestNested, at: Segment[]) => {
    for (const [key, value] of Object.entries(n.options?.customTheme ?? {}) as Array<[string, string | null]>) {
      if (key !== 'fontFamily' && value !== null && normaliseColour(value) === undefined) {
        problem([...at, 'options', 'customTheme', key], `"${value}" is not a CSS colour (#hex, rgb(), rgba(), hsl(), hsla() or a named colour)`);
      }
    }
    unique(n.frames, (f) => String(f.angle), [...at, 'frames'], 'angle');
    (n.frames ?? []).forEach((frame, f) => {
      known([...at, 'frames', f, 'asset'], frame.asset);
      (frame.shapes ?? []).forEach((shape, i) => {
        const parsed = normalisePath(shape.path, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
        if (!parsed.ok && !parsed.problem.startsWith('has a point')) problem([...at, 'frames', f, 'shapes', i, 'path'], parsed.problem);
      });
    });
  };
  one(navigator, ['navigator']);
  unique(navigator.nested, (n) => n.building.toLowerCase(), ['navigator', 'nested'], 'building');
  (navigator.nested ?? []).forEach((nested, i) => one(nested, ['navigator', 'nested', i]));
}
