import type { Static } from '@sinclair/typebox';
import type { Database } from '../../db/client.js';
import { notFound, unprocessable } from '../../errors.js';
import { isUuid, newId } from '../../ids.js';
import { requireApartment } from '../apartments/service.js';
import { type PanoramaRow, panoramasRepository as repo } from './repository.js';
import type { CreatePanoramaBody, Panorama } from './schemas.js';

type Body = Static<typeof CreatePanoramaBody>;

type PanoramaBase = Omit<Panorama, 'linkedPanoramas'>;

/** The API shape of a stored panorama without its links: every metadata key present (null when never set). */
const toBase = ({ organizationId: _, linkedPanoramaIds: __, ...row }: PanoramaRow): PanoramaBase => ({
  ...row,
  metadata: {
    prealign: row.metadata.prealign ?? null,
    hlookat: row.metadata.hlookat ?? null,
    vlookat: row.metadata.vlookat ?? null,
    northOffset: row.metadata.northOffset ?? null,
  },
});

/** Comments keep a client id when given so replies can name their parent; every parent must exist. */
function buildComments(input: Body['comments'], now: string, problems: string[]): Panorama['comments'] {
  const comments = (input ?? []).map((c) => ({
    id: c.id?.toLowerCase() ?? newId(),
    comment: c.comment,
    authorData: { name: c.authorData?.name ?? null, email: c.authorData?.email ?? null, nickname: c.authorData?.nickname ?? null },
    createdAt: now,
    x: c.x,
    y: c.y,
    parentCommentId: c.parentCommentId?.toLowerCase() ?? null,
  }));
  const ids = new Set(comments.map((c) => c.id));
  if (ids.size !== comments.length) problems.push('comments ids must be unique');
  comments.forEach((c, i) => {
    if (c.parentCommentId && (c.parentCommentId === c.id || !ids.has(c.parentCommentId))) {
      problems.push(`comments[${i}].parentCommentId must be the id of another comment of this panorama`);
    }
  });
  return comments;
}

export class PanoramasService {
  constructor(private readonly db: Database) {}

  /** Operator create: the apartment names the organization; every referenced panorama must be of it. */
  async create(apartmentId: string, input: Body): Promise<Panorama> {
    const organizationId = isUuid(apartmentId) ? await repo.apartmentOwner(this.db, apartmentId) : undefined;
    if (!organizationId) throw notFound('Apartment', apartmentId);

    const id = newId();
    const now = new Date().toISOString();
    const problems: string[] = [];
    const linkedIds = [...new Set((input.linkedPanoramaIds ?? []).map((l) => l.toLowerCase()))];
    const portalTargets = (input.portals ?? []).flatMap((p) => (p.toPanoramaId ? [p.toPanoramaId.toLowerCase()] : []));
    const referenced = [...new Set([...linkedIds, ...portalTargets])];
    const known = new Set((await repo.listByIds(this.db, organizationId, referenced.filter(isUuid))).map((r) => r.id));
    const missingLinks = linkedIds.filter((l) => !known.has(l));
    if (missingLinks.length > 0) problems.push(`linkedPanoramaIds must be panoramas of the organization (unknown: ${missingLinks.slice(0, 10).join(', ')})`);
    (input.portals ?? []).forEach((p, i) => {
      if (p.toPanoramaId && !known.has(p.toPanoramaId.toLowerCase())) problems.push(`portals[${i}].toPanoramaId must be a panorama of the organization`);
    });
    const comments = buildComments(input.comments, now, problems);
    if (problems.length > 0) throw unprocessable(`Validation failed: ${problems.join('; ')}`);

    const row = await repo.insert(this.db, {
      id,
      organizationId,
      apartmentId: apartmentId.toLowerCase(),
      name: input.name.trim(),
      src: input.src,
      priority: input.priority ?? 0,
      seoTitle: input.seoTitle ?? null,
      seoDescription: input.seoDescription ?? null,
      metadata: {
        prealign: input.metadata?.prealign ?? null,
        hlookat: input.metadata?.hlookat ?? null,
        vlookat: input.metadata?.vlookat ?? null,
        northOffset: input.metadata?.northOffset ?? null,
      },
      comments,
      portals: (input.portals ?? []).map((p) => ({
        id: newId(),
        icon: p.icon ?? null,
        label: p.label ?? null,
        x: p.x,
        y: p.y,
        fromPanoramaId: id,
        toPanoramaId: p.toPanoramaId?.toLowerCase() ?? null,
        createdAt: now,
      })),
      pois: (input.pois ?? []).map((p) => ({
        id: newId(),
        name: p.name.trim(),
        x: p.x,
        y: p.y,
        data: { urls: p.data?.urls ?? [], type: p.data?.type ?? null },
        createdAt: now,
      })),
      linkedPanoramaIds: linkedIds,
    });
    return (await this.expand(organizationId, [row]))[0]!;
  }

  async listForApartment(organizationId: string, apartmentId: string): Promise<Panorama[]> {
    const apartment = await requireApartment(this.db, organizationId, apartmentId);
    return this.expand(organizationId, await repo.listByApartment(this.db, organizationId, apartment.id));
  }

  /** Linked panoramas of a whole list in one query, one level deep. */
  private async expand(organizationId: string, rows: PanoramaRow[]): Promise<Panorama[]> {
    const wanted = [...new Set(rows.flatMap((r) => r.linkedPanoramaIds))];
    const linked = new Map((await repo.listByIds(this.db, organizationId, wanted)).map((r) => [r.id, r]));
    return rows.map((r) => ({
      ...toBase(r),
      linkedPanoramas: r.linkedPanoramaIds.flatMap((l) => {
        const target = linked.get(l);
        return target ? [{ ...toBase(target), linkedPanoramas: [] }] : [];
      }),
    }));
  }
}
