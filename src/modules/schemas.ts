import type { TSchema } from '@sinclair/typebox';
import { ErrorSchema } from '../http/schemas.js';
import { ApartmentSchema } from './apartments/schemas.js';
import { AssetSchema, AssetWithUsageSchema } from './assets/schemas.js';
import { BuildingSchema } from './buildings/schemas.js';
import { DomainSchema } from './domains/schemas.js';
import { EstateSchema } from './estates/schemas.js';
import { InquirySchema } from './inquiries/schemas.js';
import { NavigatorSchema } from './navigators/schemas.js';
import { OrganizationSchema } from './organizations/schemas.js';
import { PageSettingsSchema } from './pages/schemas.js';
import { PanoramaSchema } from './panoramas/schemas.js';
import { UserSchema } from './users/schemas.js';
import { DeliverySchema, WebhookSchema } from './webhooks/schemas.js';

/**
 * Schemas with an $id, shared by reference: registered once with app.addSchema, they become
 * components/schemas of the OpenAPI document. A schema must follow those it references.
 */
export const SHARED_SCHEMAS: TSchema[] = [
  ErrorSchema,
  OrganizationSchema,
  BuildingSchema,
  EstateSchema,
  NavigatorSchema,
  ApartmentSchema,
  AssetSchema,
  AssetWithUsageSchema,
  UserSchema,
  InquirySchema,
  PanoramaSchema,
  WebhookSchema,
  DeliverySchema,
  PageSettingsSchema,
  DomainSchema,
];
