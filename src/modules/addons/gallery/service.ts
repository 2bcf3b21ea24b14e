import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset, requireGalleryMedia } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { addonWrite, requireChild } from '../write.js';
import { galleryRepository as repo } from './repository.js';
import type { CreateGalleryItem, CreateGallerySection, GalleryDocument, UpdateGalleryItem, UpdateGallerySection } from './schemas.js';

export class GalleryService extends AddonService<GalleryDocument> {
  readonly kind = 'gallery' as const;
  empty(): GalleryDocument {
    return { enabled: false, sections: [], items: [] };
  }

  async build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: GalleryDocument; version: number; editVersion: number }> {
    const { version, editVersion, ...doc } = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc, version, editVersion };
  }

  private sections(organizationId: string, estateId: string): SiblingSet {
    return { table: 'gallerySections', organizationId, estateId };
  }

  private items(organizationId: string, estateId: string, sectionId: string | null): SiblingSet {
    return { table: 'galleryItems', organizationId, estateId, parent: { column: 'sectionId', id: sectionId } };
  }

  private requireSection(tx: Queryable, organizationId: string, estateId: string, id: string) {
    return requireChild(tx, 'gallerySections', 'Gallery section', organizationId, estateId, id);
  }

  createSection(organizationId: string, estateId: string, input: Static<typeof CreateGallerySection>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.sections(organizationId, estateId);
      const id = newId();
      await repo.insertSection(tx, {
        id,
        organizationId,
        estateId,
        title: input.title.trim(),
        description: input.description ?? null,
        position: await nextPosition(tx, set),
      });
      await placeAt(tx, set, id, input.order);
      return repo.section(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateSection(organizationId: string, estateId: string, sectionId: string, input: Static<typeof UpdateGallerySection>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const fields: Parameters<typeof repo.updateSection>[3] = {};
      if (input.title !== undefined) fields.title = input.title.trim();
      if (input.description !== undefined) fields.description = input.description;
      await repo.updateSection(tx, organizationId, section.id, fields);
      if (input.order !== undefined) await placeAt(tx, this.sections(organizationId, estateId), section.id, input.order);
      return repo.section(tx, organizationId, estateId, section.id, this.srcPrefix);
    });
  }

  /** Deleting a section keeps its items: they are appended to the ungrouped items in their order. */
  deleteSection(organizationId: string, estateId: string, sectionId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const section = await this.requireSection(tx, organizationId, estateId, sectionId);
      const ungrouped = this.items(organizationId, estateId, null);
      await repo.ungroupItems(tx, organizationId, section.id, await nextPosition(tx, ungrouped));
      await repo.deleteSection(tx, organizationId, section.id);
      await compact(tx, ungrouped);
      await compact(tx, this.sections(organizationId, estateId));
    });
  }

  createItem(organizationId: string, estateId: string, input: Static<typeof CreateGalleryItem>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const sectionId = input.sectionId ? (await this.requireSection(tx, organizationId, estateId, input.sectionId)).id : null;
      const asset = await requireAddonAsset(tx, organizationId, input.assetId);
      requireGalleryMedia(asset);
      const set = this.items(organizationId, estateId, sectionId);
      const id = newId();
      await repo.insertItem(tx, {
        id,
        organizationId,
        estateId,
        assetId: asset.id,
        caption: input.caption ?? null,
        sectionId,
        position: await nextPosition(tx, set),
      });
      await placeAt(tx, set, id, input.order);
      return repo.item(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  /** PATCH an item; `sectionId` moves it to another section (or to ungrouped with null), at `order` or the end. */
  updateItem(organizationId: string, estateId: string, itemId: string, input: Static<typeof UpdateGalleryItem>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const item = await requireChild(tx, 'galleryItems', 'Gallery item', organizationId, estateId, itemId);
      let assetId: string | undefined;
      if (input.assetId !== undefined) {
        const asset = await requireAddonAsset(tx, organizationId, input.assetId);
        requireGalleryMedia(asset);
        assetId = asset.id;
      }
      let target = item.sectionId;
      if (input.sectionId !== undefined)
        target = input.sectionId === null ? null : (await this.requireSection(tx, organizationId, estateId, input.sectionId)).id;
      const moving = target !== item.sectionId;
      const fields: Parameters<typeof repo.updateItem>[3] = {};
      if (input.caption !== undefined) fields.caption = input.caption;
      if (assetId !== undefined) fields.assetId = assetId;
      if (moving) {
        fields.sectionId = target;
        fields.position = await nextPosition(tx, this.items(organizationId, estateId, target));
      }
      await repo.updateItem(tx, organizationId, item.id, fields);
      if (moving) await compact(tx, this.items(organizationId, estateId, item.sectionId));
      if (moving || input.order !== undefined) await placeAt(tx, this.items(organizationId, estateId, target), item.id, input.order);
      return repo.item(tx, organizationId, estateId, item.id, this.srcPrefix);
    });
  }

  deleteItem(organizationId: string, estateId: string, itemId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const item = await requireChild(tx, 'galleryItems', 'Gallery item', organizationId, estateId, itemId);
      await repo.deleteItem(tx, organizationId, item.id);
      await compact(tx, this.items(organizationId, estateId, item.sectionId));
    });
  }

  orderSections(organizationId: string, estateId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      await reorder(tx, this.sections(organizationId, estateId), orderedIds, 'Gallery section');
      return (await this.build(tx, organizationId, estateId)).doc.sections;
    });
  }

  /** Orders the ungrouped items (sectionId null) or the items of one section. */
  orderItems(organizationId: string, estateId: string, sectionId: string | null, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      if (sectionId !== null) await this.requireSection(tx, organizationId, estateId, sectionId);
      await reorder(tx, this.items(organizationId, estateId, sectionId), orderedIds, 'Gallery item');
      const doc = (await this.build(tx, organizationId, estateId)).doc;
      if (sectionId === null) return doc.items;
      const section = doc.sections.find((s) => s.id === sectionId.toLowerCase());
      if (!section) throw notFound('Gallery section', sectionId);
      return section.items;
    });
  }
}
