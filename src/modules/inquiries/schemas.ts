import { type Static, Type } from '@sinclair/typebox';
import { Description, Id, MemberList, Nullable, QueryEnum, SINGLE_LINE, SingleLineName, StringEnum, withIgnored } from '../../http/schemas.js';
import { UserInline } from '../users/schemas.js';

export const INQUIRY_STATUSES = ['NEW', 'IN_PROGRESS', 'WON', 'LOST', 'SPAM'] as const;
const Status = () =>
  Type.Union(
    INQUIRY_STATUSES.map((s) => Type.Literal(s)),
    { description: 'NEW, IN_PROGRESS, WON, LOST or SPAM (complete list)' },
  );

// At least 5 digits, optionally led by +, with the usual separators: "+48 600-100-200", "(555) 123 4567".
const PHONE = '^(?=(?:\\D*\\d){5,20}\\D*$)\\+?[0-9 ().\\-/]{5,32}$';

export const InquirySchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    email: Type.String(),
    referralUserId: Nullable(Type.String()),
    referralUser: Nullable(UserInline),
    estateId: Type.String(),
    apartmentIds: Type.Array(Type.String()),
    status: StringEnum(INQUIRY_STATUSES),
    phoneNumber: Nullable(Type.String()),
    info: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'Inquiry', title: 'Inquiry' },
);
export type Inquiry = Static<typeof InquirySchema>;

export const InquiryList = Type.Object({ count: Type.Integer(), items: Type.Array(Type.Ref(InquirySchema)) }, { title: 'InquiryList' });

/** What a prospect gets back: nothing beyond the receipt. */
export const InquiryReceipt = Type.Object(
  { id: Type.String(), status: StringEnum(INQUIRY_STATUSES), createdAt: Type.String({ format: 'date-time' }) },
  { title: 'InquiryReceipt' },
);

export const SubmitInquiryBody = Type.Object(
  {
    name: SingleLineName('Prospect name'),
    email: Type.String({ format: 'email', maxLength: 254, pattern: SINGLE_LINE, description: 'E-mail address; one line, no control characters' }),
    phoneNumber: Type.Optional(
      Nullable(Type.String({ pattern: PHONE, maxLength: 32, description: 'Digits with optional +, spaces, ( ) . - /; one line, no control characters' })),
    ),
    info: Type.Optional(Nullable(Description())),
    apartmentIds: Type.Optional(Type.Array(Id('Apartment of this estate'), { maxItems: 100 })),
    referralUserId: Type.Optional(Nullable(Id('A member of the estate organization'))),
  },
  { additionalProperties: false },
);

export const EstateIdParams = Type.Object({ estateId: Type.String({ maxLength: 200 }) });

export const INQUIRY_IGNORED = [
  'id',
  'name',
  'email',
  'referralUserId',
  'referralUser',
  'estateId',
  'apartmentIds',
  'phoneNumber',
  'info',
  'createdAt',
  'updatedAt',
];

/** Only status changes; the rest of an inquiry is what the prospect wrote, accepted back unchanged and ignored. */
export const UpdateInquiryBody = withIgnored({ status: Type.Optional(Status()) }, INQUIRY_IGNORED);

const page = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0, description: 'Items to skip' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50, description: 'Items to return (default 50, max 500)' })),
};

export const INQUIRY_SORTS = ['-createdAt', 'createdAt', '-updatedAt', 'updatedAt', 'status', '-status', 'name', '-name'] as const;

/** Filters and order of both inquiry lists (GET /inquiry, GET /apartment/{id}/inquiries). */
const listing = {
  status: Type.Optional(MemberList(INQUIRY_STATUSES, 'NEW, IN_PROGRESS, WON, LOST or SPAM; several comma-separated match any of them (NEW,IN_PROGRESS)')),
  q: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Case-insensitive substring of the prospect’s name or e-mail; a search of phone characters with a digit also matches the digits of the phone number ("600 100" finds "+48 600-100-200"). Not the message.',
    }),
  ),
  sort: Type.Optional(
    QueryEnum(
      INQUIRY_SORTS,
      'Order (default -createdAt, newest first); `-` reverses; status follows the workflow NEW, IN_PROGRESS, WON, LOST, SPAM. Ties by id in the same direction.',
    ),
  ),
};

export const ListInquiriesQuery = Type.Object(
  { estateId: Type.Optional(Type.String({ maxLength: 200, description: 'Only inquiries about this estate' })), ...listing, ...page },
  { additionalProperties: false },
);

export const ApartmentInquiriesQuery = Type.Object({ ...listing, ...page }, { additionalProperties: false });
