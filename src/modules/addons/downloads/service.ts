import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../../../db/client.js';
import { notFound } from '../../../errors.js';
import { newId } from '../../../ids.js';
import { AddonService } from '../addon-service.js';
import { requireAddonAsset } from '../assets.js';
import { type SiblingSet, compact, nextPosition, placeAt, reorder } from '../ordering.js';
import { addonWrite, requireChild } from '../write.js';
import { downloadsRepository as repo } from './repository.js';
import type { CreateDownloadsGroup, CreateDownloadsItem, DownloadsDocument, UpdateDownloadsGroup, UpdateDownloadsItem } from './schemas.js';

export class DownloadsService extends AddonService<DownloadsDocument> {
  readonly kind = 'downloads' as const;
  empty(): DownloadsDocument {
    return { enabled: false, groups: [] };
  }

  async build(db: Queryable, organizationId: string, estateId: string): Promise<{ doc: DownloadsDocument; version: number; editVersion: number }> {
    const { version, editVersion, ...doc } = await repo.document(db, organizationId, estateId, this.srcPrefix);
    return { doc, version, editVersion };
  }

  private groups(organizationId: string, estateId: string): SiblingSet {
    return { table: 'downloadsGroups', organizationId, estateId };
  }

  private items(organizationId: string, estateId: string, groupId: string): SiblingSet {
    return { table: 'downloadsItems', organizationId, estateId, parent: { column: 'groupId', id: groupId } };
  }

  private requireGroup(tx: Queryable, organizationId: string, estateId: string, id: string) {
    return requireChild(tx, 'downloadsGroups', 'Downloads group', organizationId, estateId, id);
  }

  private requireItem(tx: Queryable, organizationId: string, estateId: string, groupId: string, itemId: string) {
    return requireChild(tx, 'downloadsItems', 'Downloads item', organizationId, estateId, itemId, { column: 'groupId', id: groupId });
  }

  private async groupOut(tx: Queryable, organizationId: string, estateId: string, id: string) {
    const group = await repo.group(tx, organizationId, estateId, id, this.srcPrefix);
    if (!group) throw notFound('Downloads group', id);
    return group;
  }

  createGroup(organizationId: string, estateId: string, input: Static<typeof CreateDownloadsGroup>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const set = this.groups(organizationId, estateId);
      const id = newId();
      await repo.insertGroup(tx, { id, organizationId, estateId, title: input.title.trim(), position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return this.groupOut(tx, organizationId, estateId, id);
    });
  }

  updateGroup(organizationId: string, estateId: string, groupId: string, input: Static<typeof UpdateDownloadsGroup>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      if (input.title !== undefined) await repo.updateGroup(tx, organizationId, group.id, input.title.trim());
      if (input.order !== undefined) await placeAt(tx, this.groups(organizationId, estateId), group.id, input.order);
      return this.groupOut(tx, organizationId, estateId, group.id);
    });
  }

  /** A group and all its items go together: an item belongs to exactly one group. */
  deleteGroup(organizationId: string, estateId: string, groupId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      await repo.deleteGroup(tx, organizationId, group.id);
      await compact(tx, this.groups(organizationId, estateId));
    });
  }

  orderGroups(organizationId: string, estateId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      await reorder(tx, this.groups(organizationId, estateId), orderedIds, 'Downloads group');
      return (await this.build(tx, organizationId, estateId)).doc.groups;
    });
  }

  createItem(organizationId: string, estateId: string, groupId: string, input: Static<typeof CreateDownloadsItem>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      const asset = await requireAddonAsset(tx, organizationId, input.assetId);
      const set = this.items(organizationId, estateId, group.id);
      const id = newId();
      const label = input.label?.trim() || asset.name;
      await repo.insertItem(tx, { id, organizationId, estateId, groupId: group.id, assetId: asset.id, label, position: await nextPosition(tx, set) });
      await placeAt(tx, set, id, input.order);
      return repo.item(tx, organizationId, estateId, id, this.srcPrefix);
    });
  }

  updateItem(organizationId: string, estateId: string, groupId: string, itemId: string, input: Static<typeof UpdateDownloadsItem>) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      const item = await this.requireItem(tx, organizationId, estateId, group.id, itemId);
      const fields: Parameters<typeof repo.updateItem>[3] = {};
      if (input.label !== undefined) fields.label = input.label.trim();
      if (input.assetId !== undefined) fields.assetId = (await requireAddonAsset(tx, organizationId, input.assetId)).id;
      await repo.updateItem(tx, organizationId, item.id, fields);
      if (input.order !== undefined) await placeAt(tx, this.items(organizationId, estateId, group.id), item.id, input.order);
      return repo.item(tx, organizationId, estateId, item.id, this.srcPrefix);
    });
  }

  deleteItem(organizationId: string, estateId: string, groupId: string, itemId: string): Promise<void> {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      const item = await this.requireItem(tx, organizationId, estateId, group.id, itemId);
      await repo.deleteItem(tx, organizationId, item.id);
      await compact(tx, this.items(organizationId, estateId, group.id));
    });
  }

  orderItems(organizationId: string, estateId: string, groupId: string, orderedIds: string[]) {
    return addonWrite(this.db, organizationId, estateId, this.kind, async (tx) => {
      const group = await this.requireGroup(tx, organizationId, estateId, groupId);
      await reorder(tx, this.items(organizationId, estateId, group.id), orderedIds, 'Downloads item');
      return (await this.groupOut(tx, organizationId, estateId, group.id)).items;
    });
  }
}
