import { type Static, Type } from '@sinclair/typebox';
import { DateTime, Nullable, StringEnum } from '../../http/schemas.js';

export const DOMAIN_STATUSES = ['pending', 'verified', 'unverified'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** The name of the TXT record that proves control of `hostname`. */
export const txtNameOf = (hostname: string) => `_pps-challenge.${hostname}`;

export const DomainSchema = Type.Object(
  {
    hostname: Type.String({ description: 'Lower-case ASCII (an IDN is stored as punycode)', examples: ['homes.agency.example'] }),
    estateId: Type.String(),
    status: StringEnum(
      DOMAIN_STATUSES,
      'pending: added, the TXT record not yet seen; verified: served at https://{hostname}/ with a certificate; unverified: its TXT record has been missing for the re-verification window (complete list)',
    ),
    verification: Type.Object(
      {
        txtName: Type.String({ description: 'The TXT record to create: _pps-challenge.{hostname}' }),
        txtValue: Type.String({ description: 'Its value' }),
      },
      { description: 'The DNS record that proves the organization controls the hostname; keep it while the domain is connected' },
    ),
    url: Type.String({ description: 'https://{hostname}/, where the estate’s page is served once verified' }),
    createdAt: DateTime(),
    verifiedAt: Nullable(DateTime()),
    checkedAt: Nullable(Type.String({ format: 'date-time', description: 'The last DNS lookup of the TXT record' })),
  },
  { $id: 'Domain', title: 'Domain' },
);
export type Domain = Static<typeof DomainSchema>;

export const CreateDomainBody = Type.Object(
  { hostname: Type.String({ minLength: 1, maxLength: 1000, description: 'homes.agency.example; an IDN (bücher.example) is converted to punycode' }) },
  { additionalProperties: false },
);

export const EstateDomainsParams = Type.Object({ estateId: Type.String({ maxLength: 200 }) });
export const DomainParams = Type.Object({ estateId: Type.String({ maxLength: 200 }), hostname: Type.String({ maxLength: 1000 }) });
