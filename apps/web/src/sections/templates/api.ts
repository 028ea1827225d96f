/** Calls and shapes of templates, template categories, template variables and the provider configs a test send may use. */
import type { ChannelCategory, SmsSegments } from '@herald/shared';
import { queryOptions } from '@tanstack/react-query';
import { http } from '../../api/http';

const CATEGORIES = '/data/template-categories';
const TEMPLATES = '/data/templates';
const VARIABLES = '/data/template-variables';

/** The server refuses a template whose parts reach 5 MB together; the console refuses it before sending. */
export const TEMPLATE_MAX_BYTES = 5 * 1024 * 1024;
/** Largest HTML file the upload call reads. */
export const UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const NAME_MAX = 100;
/** Template variable names as the server accepts them. */
export const VARIABLE_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
/** What `contact.<field>` may name in a template. */
export const CONTACT_FIELDS = ['id', 'name', 'email', 'phone', 'language', 'timeZone'] as const;

export function megabytes(bytes: number): string {
  return `${bytes / 1024 / 1024} MB`;
}

/** UTF-8 size without allocating a copy, so a multi-megabyte body can be measured on every paste. */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

export type TemplatePart = 'subject' | 'html' | 'text' | 'smsText';

export interface Category {
  id: number;
  name: string;
  templateCount: number;
}

export interface TemplateSummary {
  id: number;
  name: string;
  categoryId: number | null;
  categoryName: string | null;
  channel: ChannelCategory;
  subject: string;
  hasBuilder: boolean;
  updatedAt: number;
}

export interface Template {
  id: number;
  name: string;
  categoryId: number | null;
  channel: ChannelCategory;
  subject: string;
  html: string;
  text: string;
  textGenerated: boolean;
  smsText: string;
  builder: unknown;
  updatedAt: number;
}

export interface TemplateParts {
  channel: ChannelCategory;
  subject: string;
  html: string;
  text: string;
  smsText: string;
}

export interface TemplateBody extends TemplateParts {
  name: string;
  categoryId: number | null;
  builder?: unknown;
}

export interface Problem {
  field: string;
  key: string;
  message: string;
  line: number | null;
  column: number | null;
}

/** What a preview or test send renders with: a stored contact, or the server's sample contact when none. */
export interface RenderData {
  contactId?: number;
}

export interface Preview {
  subject: string;
  html: string;
  text: string;
  smsText: string;
  segments: SmsSegments | null;
}

export interface TestSendResult {
  accepted: boolean;
  providerMessageId: string | null;
  error: string | null;
}

export interface Variable {
  name: string;
  value: string;
}

export interface SendingConfig {
  id: number;
  name: string;
  type: string;
  active: boolean;
}

export interface TemplateFilter {
  categoryId?: number;
  channel?: ChannelCategory;
  search?: string;
  page: number;
  size: number;
}

export const TEMPLATES_KEY = ['templates'] as const;
export const CATEGORIES_KEY = ['template-categories'] as const;
export const VARIABLES_KEY = ['template-variables'] as const;

const named = (name: string) => `${TEMPLATES}/${encodeURIComponent(name)}`;

export const categoriesQuery = queryOptions({
  queryKey: [...CATEGORIES_KEY, 'all'],
  queryFn: () => http.get<Category[]>(CATEGORIES),
});

/** Outside CATEGORIES_KEY: refreshing the counts must not take back a choice made on this screen. */
export const currentCategoryQuery = queryOptions({
  queryKey: ['template-category-current'],
  queryFn: () => http.get<{ categoryId: number | null }>(`${CATEGORIES}/current`),
});

export function templatesQuery(filter: TemplateFilter) {
  return queryOptions({
    queryKey: [...TEMPLATES_KEY, 'list', filter],
    queryFn: () => http.get<{ total: number; items: TemplateSummary[] }>(TEMPLATES, { ...filter }),
    // The rows already shown stay while another page or filter loads.
    placeholderData: (previous) => previous,
  });
}

export function templateQuery(name: string) {
  return queryOptions({
    queryKey: [...TEMPLATES_KEY, 'one', name],
    queryFn: () => http.get<Template>(named(name), undefined, { silent: true }),
    retry: false,
    // The editor starts from what is stored now, not from a copy cached by an earlier visit.
    staleTime: 0,
    gcTime: 0,
  });
}

export const variablesQuery = queryOptions({
  queryKey: VARIABLES_KEY,
  queryFn: () => http.get<Variable[]>(VARIABLES),
});

export function sendingConfigsQuery(category: ChannelCategory) {
  return queryOptions({
    queryKey: ['provider-configurations', 'custom', 'by-category', category],
    queryFn: () => http.get<SendingConfig[]>('/data/provider-configurations/custom', { category }),
  });
}

// Calls whose failures a form shows on its own fields are silent; the rest report through the HTTP client.
export const categoriesApi = {
  create: (name: string) => http.post<Category>(CATEGORIES, { name }, { silent: true }),
  rename: (id: number, name: string) => http.put<Category>(`${CATEGORIES}/${id}`, { name }, { silent: true }),
  remove: (id: number) => http.delete<unknown>(`${CATEGORIES}/${id}`),
  setCurrent: (categoryId: number | null) =>
    http.post<{ categoryId: number | null }>(`${CATEGORIES}/current`, { categoryId }, { silent: true }),
};

/** No category goes as an absent field, which the server reads as none: its schema would coerce a null id to 0. */
function wire({ categoryId, ...rest }: TemplateBody): Omit<TemplateBody, 'categoryId'> & { categoryId?: number } {
  return categoryId === null ? rest : { ...rest, categoryId };
}

export const templatesApi = {
  create: (body: TemplateBody) => http.post<Template>(TEMPLATES, wire(body), { silent: true }),
  replace: (name: string, body: TemplateBody) => http.put<Template>(named(name), wire(body), { silent: true }),
  remove: (name: string) => http.delete<unknown>(named(name)),
  check: (parts: TemplateParts) => http.post<{ problems: Problem[] }>(`${TEMPLATES}/check`, parts, { silent: true }),
  preview: (source: { name: string } | TemplateParts, data: RenderData) =>
    http.post<Preview>(`${TEMPLATES}/preview`, { ...source, ...data }, { silent: true }),
  uploadHtml: (file: File) => {
    const form = new FormData();
    form.append('file', file);
    return http.postMultipart<{ html: string; fileName: string; size: number }>(`${TEMPLATES}/upload-html`, form, {
      silent: true,
    });
  },
  testSend: (name: string, body: { providerConfigId: number; to: string } & RenderData) =>
    http.post<TestSendResult>(`${named(name)}/test-send`, body, { silent: true }),
};

export const variablesApi = {
  create: (variable: Variable) => http.post<Variable>(VARIABLES, variable, { silent: true }),
  update: (name: string, variable: Variable) =>
    http.put<Variable>(`${VARIABLES}/${encodeURIComponent(name)}`, variable, { silent: true }),
  remove: (name: string) => http.delete<unknown>(`${VARIABLES}/${encodeURIComponent(name)}`),
};
