import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset, requireInvestmentFile } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { addonWrite, requireChild } from '../write.js';
import { investmentRepository as repo } from './repository.js';
import { sanitizeSectionHtml } from './sanitize.js';

export interface InvestmentDocument {
  enabled: boolean;
  sections: unknown[];
}

interface SectionInput {
  title?: string;
  description?: string;
  order?: number;
}

interface FileInput {
  assetId?: string;
  label?: string;
  order?: number;
}

export class InvestmentService extends AddonService<InvestmentDocument> {
  readonly kind = 'investment' as const;
  empty(): InvestmentDocument {
    return { enabled: false, sections: [] };
  }

  async build(db: Queryable, organizationId: string, estateId: string) {
    const row = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc: { enabled: row.enabled, sections: row.sections }, version: row.version };
  }

  private sections(organizationId: string, estateId: string): SiblingSet {
    return { table: 'investment_sections', organizationId, estateId };
  }

  private files(organizationId: string, estateId: string, sectionId: string): SiblingSet {
    return { table: 'investment_files', organizationId, estateId, parent: { column: 'section_id', id: sectionId } };
  }

  private requireSection(tx: Queryable, organizationId: string, estateId: string, id: string) {
    return requireChild<{ id: string }>(tx, 'investment_sections', 'Investment section', organizationId, estateId, id);
  }

  private requireFile(tx: Queryable, organizationId: string, estateId: string, sectionId: string, fileId: string) {
    return requireChild<{ id: string }>(tx, 'investment_files', 'Investment file', organizationId, estateId, fileId, { column: 'section_id', id: sectionId });
  }

  createSection(organizationId: string, estateId: string, input: SectionInput & { title: string }) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.sections(organizationId, estateId);
      const id = newId();
      const description = sanitizeSectionHtml(input.description ?? '');
      await repo.insertSection(tx, organizationId, { id, estateId, title: input.title.trim(), description, position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return repo.section(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateSection(organizationId: string, estateId: string, sectionId: string, input: SectionInput) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const fields: { title?: string; description?: string } = {};
      if (input.title !== undefined) fields.title = input.title.trim();
      if (input.description !== undefined) fields.description = sanitizeSectionHtml(input.description);
      await repo.updateSection(tx, organizationId, section.id, fields);
      if (input.order !== undefined) await placeAt(tx, this.sections(organizationId, estateId), section.id, input.order);
      return repo.section(tx, organizationId, estateId, section.id, this.srcPrefix);
    });
  }

  deleteSection(organizationId: string, estateId: string, sectionId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      await repo.deleteSection(tx, organizationId, section.id);
      await compact(tx, this.sections(organizationId, estateId));
    });
  }

  orderSections(organizationId: string, estateId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      await reorder(tx, this.sections(organizationId, estateId), orderedIds, 'Investment section');
      return (await this.build(tx, organizationId, estateId)).doc.sections;
    });
  }

  /** Attaches an existing asset of the organization: an accepted kind of at most 50 MB. */
  createFile(organizationId: string, estateId: string, sectionId: string, input: FileInput & { assetId: string }) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const asset = await requireAddonAsset(tx, organizationId, input.assetId);
      requireInvestmentFile(asset);
      const set = this.files(organizationId, estateId, section.id);
      const id = newId();
      const label = input.label?.trim() || asset.name;
      await repo.insertFile(tx, organizationId, { id, estateId, sectionId: section.id, assetId: asset.id, label, position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return repo.file(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateFile(organizationId: string, estateId: string, sectionId: string, fileId: string, input: FileInput) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const file = await this.requireFile(tx, organizationId, estateId, section.id, fileId);
      if (input.label !== undefined) await repo.updateFile(tx, organizationId, file.id, { label: input.label.trim() });
      if (input.order !== undefined) await placeAt(tx, this.files(organizationId, estateId, section.id), file.id, input.order);
      return repo.file(tx, organizationId, estateId, file.id, this.srcPrefix);
    });
  }

  deleteFile(organizationId: string, estateId: string, sectionId: string, fileId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const file = await this.requireFile(tx, organizationId, estateId, section.id, fileId);
      await repo.deleteFile(tx, organizationId, file.id);
      await compact(tx, this.files(organizationId, estateId, section.id));
    });
  }

  orderFiles(organizationId: string, estateId: string, sectionId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      await reorder(tx, this.files(organizationId, estateId, section.id), orderedIds, 'Investment file');
      const doc = await repo.section(tx, organizationId, estateId, section.id, this.srcPrefix);
      if (!doc) throw notFound('Investment section', sectionId);
      return doc.files;
    });
  }
}
