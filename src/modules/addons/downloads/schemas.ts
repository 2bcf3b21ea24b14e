import { type Static, Type } from '@sinclair/typebox';
import { Id } from '../../../http/schemas.js';
import { AddonAsset, Label, Order, Title } from '../schemas.js';

export const DownloadsItem = Type.Object(
  { id: Type.String(), assetId: Type.String(), label: Type.String(), order: Type.Integer(), asset: AddonAsset },
  { title: 'DownloadsItem' },
);
export const DownloadsGroup = Type.Object(
  { id: Type.String(), title: Type.String(), order: Type.Integer(), items: Type.Array(DownloadsItem) },
  { title: 'DownloadsGroup' },
);
export const DownloadsDocument = Type.Object({ enabled: Type.Boolean(), groups: Type.Array(DownloadsGroup) }, { title: 'DownloadsDocument' });
export type DownloadsDocument = Static<typeof DownloadsDocument>;

export const CreateDownloadsGroup = Type.Object({ title: Title('Group title'), order: Type.Optional(Order()) }, { additionalProperties: false });
export const UpdateDownloadsGroup = Type.Object({ title: Type.Optional(Title('Group title')), order: Type.Optional(Order()) }, { additionalProperties: false });

export const CreateDownloadsItem = Type.Object(
  { assetId: Id('An asset of the organization'), label: Type.Optional(Label('Label; defaults to the asset name')), order: Type.Optional(Order()) },
  { additionalProperties: false },
);
export const UpdateDownloadsItem = Type.Object(
  { assetId: Type.Optional(Id('An asset of the organization')), label: Type.Optional(Label()), order: Type.Optional(Order()) },
  { additionalProperties: false },
);
