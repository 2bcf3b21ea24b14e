import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset, requireInvestmentFile } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { addonWrite, requireChild } from '../write.js';
import { investmentRepository as repo } from './repository.js';
import { sanitizeSectionHtml } from './sanitize.js';
import type { CreateInvestmentFile, CreateInvestmentSection, InvestmentDocument, UpdateInvestmentFile, UpdateInvestmentSection } from './schemas.js';

export class InvestmentService extends AddonService<InvestmentDocument> {
  readonly kind = 'investment' as const;
  empty(): InvestmentDocument {
    return { enabled: false, sections: [] };
  }

  async build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: InvestmentDocument; version: number; editVersion: number }> {
    const { version, editVersion, ...doc } = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc, version, editVersion };
  }

  private sections(organizationId: string, estateId: string): SiblingSet {
    return { table: 'investmentSections', organizationId, estateId };
  }

  private files(organizationId: string, estateId: string, sectionId: string): SiblingSet {
    return { table: 'investmentFiles', organizationId, estateId, parent: { column: 'sectionId', id: sectionId } };
  }

  private requireSection(tx: Queryable, organizationId: string, estateId: string, id: string) {
    return requireChild(tx, 'investmentSections', 'Investment section', organizationId, estateId, id);
  }

  private requireFile(tx: Queryable, organizationId: string, estateId: string, sectionId: string, fileId: string) {
    return requireChild(tx, 'investmentFiles', 'Investment file', organizationId, estateId, fileId, { column: 'sectionId', id: sectionId });
  }

  createSection(organizationId: string, estateId: string, input: Static<typeof CreateInvestmentSection>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.sections(organizationId, estateId);
      const id = newId();
      const description = sanitizeSectionHtml(input.description ?? '');
      await repo.insertSection(tx, { id, organizationId, estateId, title: input.title.trim(), description, position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return repo.section(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateSection(organizationId: string, estateId: string, sectionId: string, input: Static<typeof UpdateInvestmentSection>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const fields: Parameters<typeof repo.updateSection>[3] = {};
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
  createFile(organizationId: string, estateId: string, sectionId: string, input: Static<typeof CreateInvestmentFile>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const asset = await requireAddonAsset(tx, organizationId, input.assetId);
      requireInvestmentFile(asset);
      const set = this.files(organizationId, estateId, section.id);
      const id = newId();
      const label = input.label?.trim() || asset.name;
      await repo.insertFile(tx, { id, organizationId, estateId, sectionId: section.id, assetId: asset.id, label, position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return repo.file(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateFile(organizationId: string, estateId: string, sectionId: string, fileId: string, input: Static<typeof UpdateInvestmentFile>) {
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
