import { type TSchema, Type } from '@sinclair/typebox';
import { errorResponses, partnerErrors } from '../../http/schemas.js';

export const security = [{ apiKey: [] }];

/** Responses of an add-on write: the body on success plus the partner error set. */
export const writeResponses = (code: 200 | 201, body: TSchema) => ({ [code]: body, ...partnerErrors(409, 413) });

export const deleteResponses = () => ({ 204: Type.Null({ description: 'Deleted' }), ...partnerErrors(409) });

/** Public reads: anonymous is fine, a bad key is still 401; 304 answers a matching If-None-Match. */
export const readResponses = (body: TSchema) => ({
  200: body,
  304: Type.Null({ description: 'Not modified (If-None-Match matched the ETag)' }),
  ...errorResponses(400, 401, 404, 429),
});
