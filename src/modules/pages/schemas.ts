import { type Static, Type } from '@sinclair/typebox';
import { Id, Nullable } from '../../http/schemas.js';

/** Origins a page may be framed by at most (CSP frame-ancestors). */
export const MAX_EMBED_ORIGINS = 20;

/** The page's contact block (issue 34): each line optional, shown as given. */
export const PageContactSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The sales office or person' })),
    phone: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: '^[+0-9 ()./-]+$', description: 'Shown and linked as tel:' })),
    email: Type.Optional(Type.String({ maxLength: 254, format: 'email', description: 'Shown and linked as mailto:' })),
    address: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
    openingHours: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Free text, e.g. Mon–Fri 9:00–17:00' })),
  },
  { additionalProperties: false, title: 'PageContact' },
);
export type PageContact = Static<typeof PageContactSchema>;

const PrivacyPolicyUrl = Type.String({
  maxLength: 2000,
  pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$',
  description: 'The privacy policy the inquiry form links to (http or https)',
});

export const PageSettingsSchema = Type.Object(
  {
    estateId: Type.String(),
    enabled: Type.Boolean({ description: 'false until set: GET /p/{slug} answers 404 while off' }),
    navigatorId: Nullable(Type.String({ description: 'The navigator the page shows; null: the estate’s first' })),
    showApartments: Type.Boolean({ description: 'The apartment list and details sections' }),
    showInquiryForm: Type.Boolean({ description: 'The inquiry form section' }),
    embedOrigins: Type.Array(Type.String(), { description: 'Origins allowed to frame the page (CSP frame-ancestors); [] = any' }),
    locale: Type.String({ description: 'BCP 47 tag the page formats prices, areas and dates with, and picks its words by' }),
    contact: Nullable(PageContactSchema),
    privacyPolicyUrl: Nullable(Type.String({ description: 'The privacy policy the inquiry form links to; null: none' })),
    url: Type.String({ description: 'The page’s public URL ({PUBLIC_URL}/p/{slug})' }),
  },
  { $id: 'PageSettings', title: 'PageSettings' },
);
export type PageSettings = Static<typeof PageSettingsSchema>;

export const PutPageBody = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    navigatorId: Type.Optional(Nullable(Id('A navigator of this estate; null: the estate’s first'))),
    showApartments: Type.Optional(Type.Boolean()),
    showInquiryForm: Type.Optional(Type.Boolean()),
    embedOrigins: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 255, description: 'An origin: https://example.com or http://localhost:8080, no path' }), {
        maxItems: MAX_EMBED_ORIGINS,
      }),
    ),
    locale: Type.Optional(Type.String({ minLength: 2, maxLength: 35, description: 'A BCP 47 language tag, e.g. en-US, pl-PL, de' })),
    contact: Type.Optional(Nullable(PageContactSchema)),
    privacyPolicyUrl: Type.Optional(Nullable(PrivacyPolicyUrl)),
  },
  { additionalProperties: false, description: 'Fields left out keep their value (the defaults on the first PUT)' },
);
export type PutPageBody = Static<typeof PutPageBody>;

export const PreviewLinkSchema = Type.Object(
  {
    url: Type.String({ description: 'Renders the page (noindex) even while it is off, until expiresAt' }),
    expiresAt: Type.String({ format: 'date-time' }),
  },
  { title: 'PagePreviewLink' },
);

export const PageEstateParams = Type.Object({ estateId: Type.String({ maxLength: 200 }) });
/** Any text the router passes (at most 500 characters, maxParamLength): a slug that cannot exist is the same 404 as one that does not. */
export const SlugParams = Type.Object({ slug: Type.String() });
