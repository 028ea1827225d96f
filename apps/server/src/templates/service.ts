/** Templates, their categories and the account's variables; HTML upload, preview and test send. */

import type { MultipartFile } from '@fastify/multipart';
import { type ChannelCategory, type ErrorKey, isEmail, isPhone, isValidTemplateName, smsSegments } from '@herald/shared';
import { detail } from '@herald/shared/message-details';
import type { OutgoingEmail, OutgoingSms } from '../channels/types.js';
import { type Db, isUniqueViolation } from '../db/database.js';
import { AppError, type FieldFailure, invalidField, invalidFields, notFound } from '../http/errors.js';
import type { ChannelPool } from '../providers/channel-pool.js';
import { findConfig } from '../providers/queries.js';
import * as q from './queries.js';
import {
  CHANNEL_PARTS,
  checkTemplate,
  compileTemplate,
  plainTextFromHtml,
  type RenderContext,
  type RenderedTemplate,
  TEMPLATE_LIMITS,
  type TemplateContact,
  TemplateRenderError,
  type TemplateSource,
  TemplateSyntaxError,
} from './render.js';

export interface TemplatesDeps {
  db: Db;
  pool: ChannelPool;
}

/** Largest uploaded HTML file. */
const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
/** The console gives up after 5 s, so a test send answers before that even when the provider hangs. */
const TEST_SEND_TIMEOUT_MS = 4500;
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;
/** PostgreSQL text cannot hold it, so neither database stores it. */
const NUL = '\u0000';
/** A pasted page of junk could have thousands of problems; the first ones are enough to fix it. */
const MAX_PROBLEMS = 50;

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;
export const templateTooLarge = () =>
  new AppError(413, 'templates.tooLarge', { limit: megabytes(TEMPLATE_LIMITS.sourceBytes) }, [
    { field: 'html', key: 'templates.tooLarge', params: { limit: megabytes(TEMPLATE_LIMITS.sourceBytes) } },
  ]);

function nameTaken(field: string) {
  return (error: unknown): never => {
    if (isUniqueViolation(error)) throw invalidField(field, { key: 'validation.nameExists' });
    throw error;
  };
}

// Categories

function presentCategory(row: { id: number; name: string; created_at: number; template_count?: number }) {
  return {
    id: Number(row.id),
    name: row.name,
    templateCount: Number(row.template_count ?? 0),
    createdAt: Number(row.created_at),
  };
}

export async function listCategories(db: Db, accountId: number) {
  return (await q.listCategories(db, accountId)).map(presentCategory);
}

async function getCategory(db: Db, accountId: number, id: number) {
  const found = (await q.listCategories(db, accountId)).find((row) => Number(row.id) === id);
  if (!found) throw notFound();
  return presentCategory(found);
}

function categoryName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', { key: 'validation.mandatory' });
  if (trimmed.includes(NUL)) throw invalidField('name', { key: 'validation.invalidValue' });
  return trimmed;
}

export async function createCategory(db: Db, accountId: number, name: string) {
  const id = await q.insertCategory(db, accountId, categoryName(name), Date.now()).catch(nameTaken('name'));
  return getCategory(db, accountId, id);
}

export async function renameCategory(db: Db, accountId: number, id: number, name: string) {
  const renamed = await q.renameCategory(db, accountId, id, categoryName(name)).catch(nameTaken('name'));
  if (!renamed) throw notFound();
  return getCategory(db, accountId, id);
}

/** Its templates stay, without a category. */
export async function deleteCategory(db: Db, accountId: number, id: number): Promise<void> {
  if (!(await q.deleteCategory(db, accountId, id))) throw notFound();
}

export async function currentCategory(db: Db, accountId: number) {
  return { categoryId: await q.findCurrentCategory(db, accountId) };
}

export async function setCurrentCategory(db: Db, accountId: number, categoryId: number | null) {
  if (categoryId !== null && !(await q.findCategory(db, accountId, categoryId))) throw notFound();
  await q.setCurrentCategory(db, accountId, categoryId);
  return { categoryId };
}

// Templates

export interface TemplateInput {
  name: string;
  categoryId?: number | null | undefined;
  channel: ChannelCategory;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  smsText?: string | undefined;
  builder?: unknown;
}

function presentTemplate(row: q.TemplateRow) {
  return {
    id: Number(row.id),
    name: row.name,
    categoryId: row.category_id === null ? null : Number(row.category_id),
    channel: row.channel,
    subject: row.subject,
    html: row.html,
    text: row.text,
    textGenerated: row.text_generated === 1,
    smsText: row.sms_text,
    builder: row.builder === null ? null : (JSON.parse(row.builder) as unknown),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

function sourceOf(row: q.TemplateRow): TemplateSource {
  return {
    channel: row.channel as ChannelCategory,
    subject: row.subject,
    html: row.html,
    text: row.text,
    smsText: row.sms_text,
  };
}

/** What the user gave must stay under the limit; the generated text part is not counted. */
function checkSize(parts: (string | null | undefined)[]): void {
  const bytes = parts.reduce((sum, part) => sum + (part ? Buffer.byteLength(part) : 0), 0);
  if (bytes >= TEMPLATE_LIMITS.sourceBytes) throw templateTooLarge();
}

function checkTemplateName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField(field, { key: 'validation.mandatory' });
  if (!isValidTemplateName(trimmed)) throw invalidField(field, { key: 'validation.invalidTemplateName' });
  return trimmed;
}

/** Field failures of the save-time check, each naming its line and column. */
function problemFailures(problems: ReturnType<typeof checkTemplate>): FieldFailure[] {
  return problems.map(
    (problem): FieldFailure =>
      problem.kind === 'syntax'
        ? {
            field: problem.part,
            key: 'templates.syntaxError',
            params: { line: problem.line, column: problem.column, detail: problem.detail },
          }
        : {
            field: problem.part,
            key: 'templates.unknownVariable',
            params: { line: problem.line, column: problem.column, name: problem.name },
          },
  );
}

function sourceFrom(input: Omit<TemplateInput, 'name'>): TemplateSource {
  return {
    channel: input.channel,
    subject: input.subject ?? '',
    html: input.html ?? '',
    text: input.text ?? '',
    smsText: input.smsText ?? '',
  };
}

/**
 * The save-time check of the channel's parts, with the text part generated from the HTML when left empty.
 * A generated text part that breaks only after conversion is reported as the converter's limit, not as the user's error.
 */
async function checkParts(db: Db, accountId: number, given: TemplateSource) {
  const textGenerated = given.channel === 'EMAIL' && !given.text.trim();
  const source = textGenerated ? { ...given, text: plainTextFromHtml(given.html) } : given;
  const problems = checkTemplate(source, await q.variableNames(db, accountId));
  const failures = problemFailures(
    problems.filter((problem) => !(textGenerated && problem.part === 'text')).slice(0, MAX_PROBLEMS),
  );
  const textProblem = textGenerated && failures.length === 0 ? problems.find((problem) => problem.part === 'text') : undefined;
  if (textProblem) {
    const detail = textProblem.kind === 'syntax' ? textProblem.detail : textProblem.name;
    failures.push({ field: 'text', key: 'templates.textNotGenerated', params: { detail } });
  }
  return { source, textGenerated, failures };
}

/** Validates the whole input and answers the row to write; nothing is written when any check fails. */
async function prepare(db: Db, accountId: number, input: TemplateInput): Promise<q.TemplateValues> {
  const builder = input.builder === undefined || input.builder === null ? null : JSON.stringify(input.builder);
  checkSize([input.subject, input.html, input.text, input.smsText, builder]);
  const name = checkTemplateName(input.name);
  const failures: FieldFailure[] = [];
  if (builder !== null && (typeof input.builder !== 'object' || input.builder === null))
    failures.push({ field: 'builder', key: 'validation.invalidValue' });
  const categoryId = input.categoryId ?? null;
  if (categoryId !== null && !(await q.findCategory(db, accountId, categoryId)))
    failures.push({ field: 'categoryId', key: 'validation.notInList' });
  const given = sourceFrom(input);
  for (const part of CHANNEL_PARTS[input.channel]) {
    if (part !== 'text' && !given[part].trim()) failures.push({ field: part, key: 'validation.mandatory' });
  }
  for (const part of ['subject', 'html', 'text', 'smsText'] as const) {
    if (given[part].includes(NUL)) failures.push({ field: part, key: 'validation.invalidValue' });
  }
  if (failures.length > 0) throw invalidFields(failures);

  const { source, textGenerated, failures: problems } = await checkParts(db, accountId, given);
  if (problems.length > 0) throw invalidFields(problems);
  return {
    name,
    category_id: categoryId,
    channel: input.channel,
    subject: source.subject,
    html: source.html,
    text: source.text,
    text_generated: textGenerated ? 1 : 0,
    sms_text: source.smsText,
    builder,
  };
}

async function requireTemplate(db: Db, accountId: number, ref: { name: string } | { id: number }): Promise<q.TemplateRow> {
  const row = await q.findTemplate(db, accountId, ref);
  if (!row) throw notFound();
  return row;
}

export async function listTemplates(db: Db, accountId: number, query: q.TemplateFilter & { page: number; size: number }) {
  const filter = { categoryId: query.categoryId, channel: query.channel, search: query.search?.trim() };
  const rows = await q.listTemplates(db, accountId, filter, query.size, (query.page - 1) * query.size);
  return {
    total: await q.countTemplates(db, accountId, filter),
    items: rows.map((row) => ({
      id: Number(row.id),
      name: row.name,
      categoryId: row.category_id === null ? null : Number(row.category_id),
      categoryName: row.category_name ?? null,
      channel: row.channel,
      subject: row.subject,
      hasBuilder: Boolean(row.has_builder),
      createdAt: Number(row.created_at),
      updatedAt: Number(row.updated_at),
    })),
  };
}

export async function getTemplate(db: Db, accountId: number, name: string) {
  return presentTemplate(await requireTemplate(db, accountId, { name }));
}

export async function createTemplate(db: Db, accountId: number, input: TemplateInput) {
  const values = await prepare(db, accountId, input);
  await q.insertTemplate(db, accountId, values, Date.now()).catch(nameTaken('name'));
  return getTemplate(db, accountId, values.name);
}

/** A full replacement: parts left out become empty, a left-out builder is cleared; the body's name may rename it. */
/** A first start's templates for each channel, printing a contact's fields and the unsubscribe link. */
export async function seedSampleTemplates(db: Db, accountId: number): Promise<void> {
  await createTemplate(db, accountId, {
    name: 'welcome',
    channel: 'EMAIL',
    subject: 'Welcome, {{ contact.name }}',
    html: '<h1>Hello, {{ contact.name }}!</h1><p>This is a first campaign from Herald to {{ contact.attributes.city }}.</p><p><a href="{{ unsubscribe_url }}">Unsubscribe</a></p>',
  });
  await createTemplate(db, accountId, {
    name: 'welcome-sms',
    channel: 'SMS',
    smsText: 'Hello, {{ contact.name }}! This is a first campaign from Herald.',
  });
}

export async function updateTemplate(db: Db, accountId: number, name: string, input: TemplateInput) {
  const existing = await requireTemplate(db, accountId, { name });
  const values = await prepare(db, accountId, input);
  await q.updateTemplate(db, accountId, Number(existing.id), values, Date.now()).catch(nameTaken('name'));
  return getTemplate(db, accountId, values.name);
}

export async function copyTemplate(db: Db, accountId: number, name: string, newName: string) {
  const existing = await requireTemplate(db, accountId, { name });
  const values: q.TemplateValues = {
    name: checkTemplateName(newName, 'newName'),
    category_id: existing.category_id,
    channel: existing.channel,
    subject: existing.subject,
    html: existing.html,
    text: existing.text,
    text_generated: existing.text_generated,
    sms_text: existing.sms_text,
    builder: existing.builder,
  };
  await q.insertTemplate(db, accountId, values, Date.now()).catch(nameTaken('newName'));
  return getTemplate(db, accountId, values.name);
}

export async function deleteTemplate(db: Db, accountId: number, name: string): Promise<void> {
  if (!(await q.deleteTemplate(db, accountId, name))) throw notFound();
}

/** The editor's live check: the save-time problems with their positions, without saving. */
export async function checkDraft(
  db: Db,
  accountId: number,
  input: Omit<TemplateInput, 'name'>,
  text: (key: ErrorKey, params: Record<string, string | number>) => string,
) {
  checkSize([input.subject, input.html, input.text, input.smsText]);
  const { failures } = await checkParts(db, accountId, sourceFrom(input));
  return {
    problems: failures.map((failure) => ({
      field: failure.field,
      key: failure.key,
      message: text(failure.key, failure.params ?? {}),
      line: typeof failure.params?.line === 'number' ? failure.params.line : null,
      column: typeof failure.params?.column === 'number' ? failure.params.column : null,
    })),
  };
}

// Rendering

const SAMPLE_CONTACT: TemplateContact = {
  name: 'Alex Sample',
  email: 'alex@example.com',
  phone: '+15550100100',
  language: 'en',
  timeZone: 'UTC',
  attributes: {},
};

function attributesOf(value: unknown): Record<string, unknown> {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

export interface RenderData {
  contactId?: number | undefined;
  sample?: { contact?: Record<string, unknown> | undefined; vars?: Record<string, string> | undefined } | undefined;
}

/** Previews and test sends unsubscribe nobody: their link goes nowhere. */
export const SAMPLE_UNSUBSCRIBE_URL = '#unsubscribe';

/** The data a preview or test send renders with: a stored contact, the sample given, or a built-in sample. */
async function renderContext(db: Db, accountId: number, data: RenderData): Promise<RenderContext> {
  const vars = { ...(await q.variableValues(db, accountId)), ...data.sample?.vars };
  const unsubscribe_url = SAMPLE_UNSUBSCRIBE_URL;
  if (data.contactId !== undefined) {
    const row = await q.findContact(db, accountId, data.contactId);
    if (!row) throw notFound();
    const contact: TemplateContact = {
      id: Number(row.id),
      name: row.name,
      email: row.email,
      phone: row.phone,
      language: row.language,
      timeZone: row.time_zone,
      attributes: attributesOf(row.attributes),
    };
    return { contact, vars, unsubscribe_url };
  }
  const given = data.sample?.contact;
  const contact = given ? { ...given, attributes: attributesOf(given.attributes) } : SAMPLE_CONTACT;
  return { contact: contact as TemplateContact, vars, unsubscribe_url };
}

/** Syntax and limit failures as the API's 400s, naming the part at fault. */
function renderFailure(error: unknown): unknown {
  if (error instanceof TemplateSyntaxError) {
    return invalidField(error.part, {
      key: 'templates.syntaxError',
      params: { line: error.line, column: error.column, detail: error.detail },
    });
  }
  if (error instanceof TemplateRenderError) {
    return invalidField(error.part, { key: 'templates.renderFailed', params: { detail: error.detail } });
  }
  return error;
}

function render(source: TemplateSource, context: RenderContext): RenderedTemplate {
  try {
    return compileTemplate(source)(context);
  } catch (error) {
    throw renderFailure(error);
  }
}

export interface PreviewInput extends RenderData {
  name?: string | undefined;
  channel?: ChannelCategory | undefined;
  subject?: string | undefined;
  html?: string | undefined;
  text?: string | undefined;
  smsText?: string | undefined;
}

/** A stored template (by name) or the editor's unsaved fields, rendered leniently: missing values are empty. */
export async function preview(db: Db, accountId: number, input: PreviewInput) {
  let source: TemplateSource;
  if (input.name !== undefined) {
    source = sourceOf(await requireTemplate(db, accountId, { name: input.name }));
  } else {
    if (!input.channel) throw invalidField('channel', { key: 'validation.mandatory' });
    checkSize([input.subject, input.html, input.text, input.smsText]);
    const html = input.html ?? '';
    const text = input.text?.trim() ? input.text : input.channel === 'EMAIL' ? plainTextFromHtml(html) : '';
    source = { channel: input.channel, subject: input.subject ?? '', html, text, smsText: input.smsText ?? '' };
  }
  const rendered = render(source, await renderContext(db, accountId, input));
  return { ...rendered, segments: source.channel === 'SMS' ? smsSegments(rendered.smsText) : null };
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the provider within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** E.164 from what a person types: spaces, dashes, dots and parentheses dropped, a plus added. */
function phoneNumber(value: string): string | null {
  const compact = value.replace(/[\s().-]/g, '');
  return isPhone(compact) ? (compact.startsWith('+') ? compact : `+${compact}`) : null;
}

export interface TestSendInput extends RenderData {
  providerConfigId: number;
  to: string;
}

/** Renders a stored template and sends it through one of the account's provider configs, now. */
export async function testSend(deps: TemplatesDeps, accountId: number, name: string, input: TestSendInput) {
  const template = await requireTemplate(deps.db, accountId, { name });
  const config = await findConfig(deps.db, accountId, input.providerConfigId);
  if (!config) throw notFound();
  const channel = template.channel as ChannelCategory;
  if (config.category !== channel) throw invalidField('providerConfigId', { key: 'templates.channelMismatch' });
  const to = input.to.trim();
  const recipient = channel === 'EMAIL' ? (isEmail(to) ? to : null) : phoneNumber(to);
  if (!recipient) throw invalidField('to', { key: channel === 'EMAIL' ? 'validation.invalidEmail' : 'templates.invalidPhone' });

  const rendered = render(sourceOf(template), await renderContext(deps.db, accountId, input));
  const message: OutgoingEmail | OutgoingSms =
    channel === 'EMAIL'
      ? { id: 0, to: recipient, subject: rendered.subject, html: rendered.html, text: rendered.text }
      : { id: 0, to: recipient, text: rendered.smsText };
  try {
    const [result] = await withTimeout(deps.pool.get(config).send([message]), TEST_SEND_TIMEOUT_MS);
    return {
      accepted: result?.accepted ?? false,
      providerMessageId: result?.providerMessageId ?? null,
      error: result?.accepted ? null : (result?.error ?? detail('details.noAnswer')),
    };
  } catch (error) {
    return { accepted: false, providerMessageId: null, error: (error as Error).message };
  }
}

// HTML upload

function isHtmlFileName(fileName: string): boolean {
  return /\.html?$/i.test(fileName);
}

/** One .html/.htm file of at most 2 MB, valid UTF-8; answered as text for the editor, exactly as it was. */
export async function readHtmlUpload(file: MultipartFile | undefined) {
  if (!file) throw invalidField('file', { key: 'validation.mandatory' });
  let content: Buffer;
  try {
    content = await file.toBuffer();
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
      const params = { limit: megabytes(UPLOAD_MAX_BYTES) };
      throw new AppError(413, 'upload.tooLarge', params, [{ field: 'file', key: 'upload.tooLarge', params }]);
    }
    throw error;
  }
  if (!isHtmlFileName(file.filename) || content.includes(0)) throw invalidField('file', { key: 'upload.wrongFile' });
  let html: string;
  try {
    html = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    throw invalidField('file', { key: 'upload.wrongFile' });
  }
  return { html, fileName: file.filename, size: content.length };
}

export const UPLOAD_LIMITS = { limits: { fileSize: UPLOAD_MAX_BYTES, files: 1 } };

// Variables

function presentVariable(row: { name: string; value: string; created_at: number; updated_at: number }) {
  return { name: row.name, value: row.value, createdAt: Number(row.created_at), updatedAt: Number(row.updated_at) };
}

function variableName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalidField('name', { key: 'validation.mandatory' });
  if (!VARIABLE_NAME.test(trimmed)) throw invalidField('name', { key: 'templates.invalidVariableName' });
  return trimmed;
}

export async function listVariables(db: Db, accountId: number) {
  return (await q.listVariables(db, accountId)).map(presentVariable);
}

async function getVariable(db: Db, accountId: number, name: string) {
  const row = await q.findVariable(db, accountId, name);
  if (!row) throw notFound();
  return presentVariable(row);
}

function variableValue(value: string): string {
  if (value.includes(NUL)) throw invalidField('value', { key: 'validation.invalidValue' });
  return value;
}

export async function createVariable(db: Db, accountId: number, input: { name: string; value: string }) {
  const name = variableName(input.name);
  await q.insertVariable(db, accountId, name, variableValue(input.value), Date.now()).catch(nameTaken('name'));
  return getVariable(db, accountId, name);
}

/** Renaming is allowed; templates that still say vars.<old name> then render it empty. */
export async function updateVariable(db: Db, accountId: number, name: string, input: { name: string; value: string }) {
  const newName = variableName(input.name);
  const updated = await q
    .updateVariable(db, accountId, name, { name: newName, value: variableValue(input.value) }, Date.now())
    .catch(nameTaken('name'));
  if (!updated) throw notFound();
  return getVariable(db, accountId, newName);
}

export async function deleteVariable(db: Db, accountId: number, name: string): Promise<void> {
  if (!(await q.deleteVariable(db, accountId, name))) throw notFound();
}
