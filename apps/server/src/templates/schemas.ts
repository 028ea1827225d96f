/** Request and answer shapes of templates, template categories and template variables. */
import { Type } from 'typebox';

export const Channel = Type.Union([Type.Literal('EMAIL'), Type.Literal('SMS')]);

const NAME_MAX = 100;
/** PostgreSQL cannot compare text with a NUL in it, so such a value is refused before any query. */
const NO_NUL = '^[^\\u0000]*$';

export const CategoryBody = Type.Object({ name: Type.String({ maxLength: NAME_MAX }) });

export const CategoryAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  templateCount: Type.Integer(),
  createdAt: Type.Number(),
});

export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export const CurrentCategory = Type.Object({ categoryId: Type.Union([Type.Integer(), Type.Null()]) });

export const NameParams = Type.Object({ name: Type.String({ maxLength: NAME_MAX, pattern: NO_NUL }) });

/** The builder's block document; any JSON object or array, stored as given. */
const Builder = Type.Unknown({ description: 'The visual builder block JSON (object or array), or null' });

/** The parts of a template, as the editor sends them for saving, previewing or checking. */
const TemplateFields = {
  channel: Channel,
  subject: Type.Optional(Type.String()),
  html: Type.Optional(Type.String({ description: 'Stored exactly as given' })),
  text: Type.Optional(Type.String({ description: 'Plain-text part; empty = generated from html' })),
  smsText: Type.Optional(Type.String()),
};

export const TemplateBody = Type.Object({
  name: Type.String({ maxLength: NAME_MAX }),
  categoryId: Type.Optional(Type.Union([Type.Integer(), Type.Null()])),
  ...TemplateFields,
  builder: Type.Optional(Builder),
});

export const TemplateAnswer = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  channel: Type.String(),
  subject: Type.String(),
  html: Type.String(),
  text: Type.String(),
  textGenerated: Type.Boolean(),
  smsText: Type.String(),
  builder: Builder,
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const TemplateSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  categoryId: Type.Union([Type.Integer(), Type.Null()]),
  categoryName: Type.Union([Type.String(), Type.Null()]),
  channel: Type.String(),
  subject: Type.String(),
  hasBuilder: Type.Boolean(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const TemplateQuery = Type.Object({
  categoryId: Type.Optional(Type.Integer()),
  channel: Type.Optional(Channel),
  search: Type.Optional(Type.String({ maxLength: 200, pattern: NO_NUL })),
  page: Type.Integer({ minimum: 1, default: 1 }),
  size: Type.Integer({ minimum: 1, maximum: 100, default: 10 }),
});

export const TemplatePage = Type.Object({ total: Type.Integer(), items: Type.Array(TemplateSummary) });

export const CopyBody = Type.Object({ newName: Type.String({ maxLength: NAME_MAX }) });

/** Data a preview or test send renders with; vars given here override the account's. */
const Sample = Type.Object({
  contact: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  vars: Type.Optional(Type.Record(Type.String(), Type.String())),
});

const RenderData = {
  contactId: Type.Optional(Type.Integer({ minimum: 1, description: 'Render for this contact' })),
  sample: Type.Optional(Sample),
};

export const PreviewBody = Type.Object({
  name: Type.Optional(
    Type.String({ maxLength: NAME_MAX, pattern: NO_NUL, description: 'A stored template; otherwise the fields given' }),
  ),
  channel: Type.Optional(Channel),
  subject: Type.Optional(Type.String()),
  html: Type.Optional(Type.String()),
  text: Type.Optional(Type.String()),
  smsText: Type.Optional(Type.String()),
  ...RenderData,
});

export const Segments = Type.Object({
  encoding: Type.String(),
  characters: Type.Integer(),
  parts: Type.Integer(),
  perPart: Type.Integer(),
});

export const PreviewAnswer = Type.Object({
  subject: Type.String(),
  html: Type.String(),
  text: Type.String(),
  smsText: Type.String(),
  segments: Type.Union([Segments, Type.Null()]),
});

export const CheckBody = Type.Object(TemplateFields);

export const Problem = Type.Object({
  field: Type.String(),
  key: Type.String(),
  message: Type.String(),
  line: Type.Union([Type.Integer(), Type.Null()]),
  column: Type.Union([Type.Integer(), Type.Null()]),
});

export const CheckAnswer = Type.Object({ problems: Type.Array(Problem) });

export const TestSendBody = Type.Object({
  providerConfigId: Type.Integer(),
  to: Type.String({ maxLength: 254, pattern: NO_NUL }),
  ...RenderData,
});

export const TestSendAnswer = Type.Object({
  accepted: Type.Boolean(),
  providerMessageId: Type.Union([Type.String(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const UploadAnswer = Type.Object({ html: Type.String(), fileName: Type.String(), size: Type.Integer() });

export const UploadForm = Type.Object({ file: Type.String({ format: 'binary', description: 'An .html or .htm file' }) });

export const VariableBody = Type.Object({
  name: Type.String({ maxLength: 64 }),
  value: Type.String({ maxLength: 64 * 1024 }),
});

export const VariableAnswer = Type.Object({
  name: Type.String(),
  value: Type.String(),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const StatusAnswer = Type.Object({ status: Type.String() });
