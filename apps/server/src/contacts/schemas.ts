/** Request and answer shapes of contact lists, contacts and imports. */
import { CONTACT_STATUSES } from '@herald/shared';
import { Type } from 'typebox';
import { ENCODINGS, SEPARATORS } from './import/detect.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const ListParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const ContactParams = Type.Object({ id: Type.Integer({ minimum: 1 }), contactId: Type.Integer({ minimum: 1 }) });
export const ImportParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

const Page = {
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
};

const Country = Nullable(Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166 alpha-2 code' }));

export const ListBody = Type.Object({
  name: Type.String({ maxLength: 200 }),
  defaultCountry: Type.Optional(Country),
});

export const ListQuery = Type.Object({ ...Page, search: Type.Optional(Type.String({ maxLength: 200 })) });

export const ListAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  defaultCountry: Nullable(Type.String()),
  attributeNames: Type.Array(Type.String()),
  state: Type.Union([Type.Literal('ready'), Type.Literal('importing')]),
  counts: Type.Object({
    total: Type.Integer(),
    withEmail: Type.Integer(),
    withPhone: Type.Integer(),
    active: Type.Integer(),
    unsubscribed: Type.Integer(),
    bounced: Type.Integer(),
    blocked: Type.Integer(),
  }),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const ListPage = Type.Object({ total: Type.Integer(), items: Type.Array(ListAnswer) });

const Status = Type.Enum(CONTACT_STATUSES);

const filterFields = {
  search: Type.Optional(Type.String({ maxLength: 200, description: 'Part of an e-mail, phone number or name' })),
  status: Type.Optional(Status),
  attribute: Type.Optional(Type.String({ pattern: '^[\\p{L}\\p{N}_-]{1,64}$', description: 'Attribute name' })),
  value: Type.Optional(Type.String({ maxLength: 1000, description: 'Value the attribute must equal; left out, it must be set' })),
};

export const ContactFilter = Type.Object(filterFields);
export const ContactQuery = Type.Object({ ...Page, ...filterFields });

export const ContactBody = Type.Object({
  email: Type.Optional(Nullable(Type.String({ maxLength: 320 }))),
  phone: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  name: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  language: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  timeZone: Type.Optional(Nullable(Type.String({ maxLength: 100 }))),
  status: Type.Optional(Status),
  attributes: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]))),
});

export const ContactAnswer = Type.Object({
  id: Type.Integer(),
  listId: Type.Integer(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  country: Nullable(Type.String()),
  name: Nullable(Type.String()),
  language: Nullable(Type.String()),
  timeZone: Nullable(Type.String()),
  status: Type.String(),
  attributes: Type.Record(Type.String(), Type.String()),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const ContactPage = Type.Object({ total: Type.Integer(), items: Type.Array(ContactAnswer) });

export const BulkBody = Type.Object({
  action: Type.Union([Type.Literal('delete'), Type.Literal('unsubscribe')]),
  ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000, description: 'These contacts' })),
  filter: Type.Optional(Type.Object(filterFields, { description: 'Every contact passing this filter ({} for all)' })),
});

export const BulkAnswer = Type.Object({ affected: Type.Integer() });

export const Status200 = Type.Object({ status: Type.String() });

// Imports

export const UploadForm = Type.Object({
  file: Type.String({
    format: 'binary',
    description: 'A .csv or .txt file: UTF-8 (with or without BOM), Windows-1251 or UTF-16',
  }),
});

const Encoding = Type.Enum(ENCODINGS);
const Separator = Nullable(Type.Enum(SEPARATORS));
const Mapping = Type.Record(Type.String(), Type.String(), {
  description: 'Column index → email, phone, name, language, timeZone, status, attribute:<name> or skip',
});

export const Preview = Type.Object({
  encoding: Encoding,
  separator: Separator,
  hasHeader: Type.Boolean(),
  header: Nullable(Type.Array(Type.String())),
  columnCount: Type.Integer(),
  rows: Type.Array(Type.Array(Type.String()), { description: 'The first 10 records after the header' }),
  suggestedMapping: Mapping,
  defaultCountry: Nullable(Type.String({ description: "The list's country, else one suggested for the account" })),
});

export const PreviewAnswer = Type.Object({ importId: Type.Integer(), preview: Preview });

export const PreviewBody = Type.Object({
  encoding: Type.Optional(Encoding),
  separator: Type.Optional(Separator),
  hasHeader: Type.Optional(Type.Boolean()),
});

export const StartBody = Type.Object({
  mapping: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String({ maxLength: 80 })),
  mode: Type.Union([Type.Literal('add'), Type.Literal('update'), Type.Literal('replace')]),
  defaultCountry: Type.Optional(Country),
});

const importFields = {
  id: Type.Integer(),
  listId: Type.Integer(),
  fileName: Type.String(),
  sizeBytes: Type.Integer(),
  status: Type.String({ description: 'pending, running, done, failed or cancelled' }),
  phase: Nullable(Type.String({ description: 'reading or saving while running' })),
  cancelRequested: Type.Boolean(),
  mode: Nullable(Type.String()),
  mapping: Nullable(Mapping),
  defaultCountry: Nullable(Type.String()),
  rowsDone: Type.Integer(),
  rowsTotal: Type.Integer({ description: 'Estimated from the bytes read until the file has been read' }),
  rowsPerSecond: Nullable(Type.Integer()),
  secondsLeft: Nullable(Type.Integer()),
  imported: Type.Integer(),
  updated: Type.Integer(),
  removed: Type.Integer(),
  duplicates: Type.Integer(),
  invalid: Type.Integer(),
  invalidSample: Type.Array(Type.Object({ line: Type.Integer(), key: Type.String(), message: Type.String() })),
  error: Nullable(Type.Object({ key: Type.String(), message: Type.String() })),
  reportAvailable: Type.Boolean(),
  fileKept: Type.Boolean(),
  createdAt: Type.Number(),
  startedAt: Nullable(Type.Number()),
  finishedAt: Nullable(Type.Number()),
};

const ImportAnswer = Type.Object(importFields);
export const ImportWithPreview = Type.Object({ ...importFields, preview: Preview });
export const ImportQuery = Type.Object(Page);
export const ImportPage = Type.Object({ total: Type.Integer(), items: Type.Array(ImportAnswer) });
