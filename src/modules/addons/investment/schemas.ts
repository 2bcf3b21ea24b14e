import { type Static, Type } from '@sinclair/typebox';
import { Id, LIMITS } from '../../../http/schemas.js';
import { AddonAsset, Label, Order, Title } from '../schemas.js';

export const InvestmentFile = Type.Object(
  {
    id: Type.String(),
    assetId: Type.String(),
    label: Type.String(),
    order: Type.Integer(),
    asset: AddonAsset,
  },
  { title: 'InvestmentFile' },
);

export const InvestmentSection = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    description: Type.String({ description: 'Sanitised HTML' }),
    order: Type.Integer(),
    files: Type.Array(InvestmentFile),
  },
  { title: 'InvestmentSection' },
);

export const InvestmentDocument = Type.Object({ enabled: Type.Boolean(), sections: Type.Array(InvestmentSection) }, { title: 'InvestmentDocument' });
export type InvestmentDocument = Static<typeof InvestmentDocument>;

const Html = () =>
  Type.String({ maxLength: LIMITS.html, description: 'HTML; sanitised server-side to paragraphs, headings, lists, emphasis, safe links, tables' });

export const CreateInvestmentSection = Type.Object(
  { title: Title('Section title'), description: Type.Optional(Html()), order: Type.Optional(Order()) },
  { additionalProperties: false },
);

export const UpdateInvestmentSection = Type.Object(
  { title: Type.Optional(Title('Section title')), description: Type.Optional(Html()), order: Type.Optional(Order()) },
  { additionalProperties: false },
);

export const CreateInvestmentFile = Type.Object(
  {
    assetId: Id('A document, image, video, archive or CAD asset of at most 50 MB'),
    label: Type.Optional(Label('Label; defaults to the asset name')),
    order: Type.Optional(Order()),
  },
  { additionalProperties: false },
);

export const UpdateInvestmentFile = Type.Object({ label: Type.Optional(Label()), order: Type.Optional(Order()) }, { additionalProperties: false });
