/** Calls and shapes of contact lists, contacts and imports, plus the downloads and the upload that need more than the JSON client. */
import { type ContactStatus, TOKEN_HEADER } from '@herald/shared';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { ApiError, type FieldError, http, reportError } from '../../../api/http';
import i18n, { currentLanguage } from '../../../i18n';
import { getToken } from '../../../session/token';

const LISTS = '/data/contact-lists';
const IMPORTS = '/data/imports';

export interface ContactCounts {
  total: number;
  withEmail: number;
  withPhone: number;
  active: number;
  unsubscribed: number;
  bounced: number;
  blocked: number;
}

export interface ContactList {
  id: number;
  name: string;
  defaultCountry: string | null;
  attributeNames: string[];
  state: 'ready' | 'importing';
  counts: ContactCounts;
  createdAt: number;
  updatedAt: number;
}

export interface ListBody {
  name: string;
  defaultCountry?: string | null;
}

export interface Contact {
  id: number;
  listId: number;
  email: string | null;
  phone: string | null;
  country: string | null;
  name: string | null;
  language: string | null;
  timeZone: string | null;
  status: ContactStatus;
  attributes: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

export interface ContactBody {
  email: string | null;
  phone: string | null;
  name: string | null;
  language: string | null;
  timeZone: string | null;
  status: ContactStatus;
  attributes: Record<string, string>;
}

export interface ContactFilter {
  search?: string;
  status?: ContactStatus;
  attribute?: string;
  value?: string;
}

export type BulkAction = 'delete' | 'unsubscribe';
export type BulkSelection = { ids: number[] } | { filter: ContactFilter };

export const ENCODINGS = ['utf-8', 'windows-1251', 'utf-16le', 'utf-16be'] as const;
export type Encoding = (typeof ENCODINGS)[number];
export const SEPARATORS = [',', ';', '\t'] as const;
export type Separator = (typeof SEPARATORS)[number];
export const IMPORT_MODES = ['add', 'update', 'replace'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];
export type ImportStatus = 'pending' | 'running' | 'done' | 'failed' | 'cancelled';

/** Column index (as a string) → email, phone, name, language, timeZone, status, attribute:<name> or skip. */
export type Mapping = Record<string, string>;

export interface ImportPreview {
  encoding: Encoding;
  separator: Separator | null;
  hasHeader: boolean;
  header: string[] | null;
  columnCount: number;
  rows: string[][];
  suggestedMapping: Mapping;
  defaultCountry: string | null;
}

export interface PreviewSettings {
  encoding?: Encoding;
  separator?: Separator | null;
  hasHeader?: boolean;
}

export interface ContactImport {
  id: number;
  listId: number;
  fileName: string;
  sizeBytes: number;
  status: ImportStatus;
  phase: 'reading' | 'saving' | null;
  cancelRequested: boolean;
  mode: ImportMode | null;
  mapping: Mapping | null;
  defaultCountry: string | null;
  rowsDone: number;
  rowsTotal: number;
  rowsPerSecond: number | null;
  secondsLeft: number | null;
  imported: number;
  updated: number;
  removed: number;
  duplicates: number;
  invalid: number;
  invalidSample: { line: number; key: string; message: string }[];
  error: { key: string; message: string } | null;
  reportAvailable: boolean;
  fileKept: boolean;
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
}

export interface ImportDetails extends ContactImport {
  preview: ImportPreview;
}

export interface StartBody {
  mapping: Mapping;
  mode: ImportMode;
  defaultCountry: string | null;
}

export interface Page<T> {
  total: number;
  items: T[];
}

/** Shared with the campaign wizard's list picker, so one invalidation refreshes every list and count on screen. */
export const LISTS_KEY = ['contact-lists'] as const;
export const IMPORTS_KEY = ['contact-imports'] as const;
/** Poll interval of a running import (the brief: every second). */
const IMPORT_POLL_MS = 1000;
/** Poll interval of the lists while one of them is importing. */
const LISTS_POLL_MS = 2000;

export function isFinished(status: ImportStatus): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

export function listsQuery(page: number, size: number, search: string) {
  return queryOptions({
    queryKey: [...LISTS_KEY, 'page', page, size, search],
    queryFn: () => http.get<Page<ContactList>>(LISTS, { page, size, search: search || undefined }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((list) => list.state === 'importing') ? LISTS_POLL_MS : false),
  });
}

export function listQuery(id: number) {
  return queryOptions({
    queryKey: [...LISTS_KEY, 'one', id],
    // Silent: the screens show a missing list themselves.
    queryFn: () => http.get<ContactList>(`${LISTS}/${id}`, undefined, { silent: true }),
    refetchInterval: (query) => (query.state.data?.state === 'importing' ? LISTS_POLL_MS : false),
    retry: false,
  });
}

export function contactsQuery(listId: number, filter: ContactFilter, page: number, size: number) {
  return queryOptions({
    queryKey: [...LISTS_KEY, 'contacts', listId, filter, page, size],
    queryFn: () => http.get<Page<Contact>>(`${LISTS}/${listId}/contacts`, { ...filter, page, size }),
    placeholderData: keepPreviousData,
  });
}

export function importsQuery(listId: number, page: number, size: number) {
  return queryOptions({
    queryKey: [...IMPORTS_KEY, 'list', listId, page, size],
    queryFn: () => http.get<Page<ContactImport>>(`${LISTS}/${listId}/imports`, { page, size }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.status === 'running') ? LISTS_POLL_MS : false),
  });
}

export function importQuery(id: number) {
  return queryOptions({
    queryKey: [...IMPORTS_KEY, 'one', id],
    queryFn: () => http.get<ImportDetails>(`${IMPORTS}/${id}`, undefined, { silent: true }),
    refetchInterval: (query) => (query.state.data?.status === 'running' ? IMPORT_POLL_MS : false),
    retry: false,
  });
}

// Form submits are silent: the forms place field errors themselves and report the rest.
export const listsApi = {
  create: (body: ListBody) => http.post<ContactList>(LISTS, body, { silent: true }),
  update: (id: number, body: ListBody) => http.put<ContactList>(`${LISTS}/${id}`, body, { silent: true }),
  remove: (id: number) => http.delete<unknown>(`${LISTS}/${id}`),
};

export const contactsApi = {
  save: (listId: number, id: number | undefined, body: ContactBody) =>
    id === undefined
      ? http.post<Contact>(`${LISTS}/${listId}/contacts`, body, { silent: true })
      : http.put<Contact>(`${LISTS}/${listId}/contacts/${id}`, body, { silent: true }),
  remove: (listId: number, id: number) => http.delete<unknown>(`${LISTS}/${listId}/contacts/${id}`),
  bulk: (listId: number, action: BulkAction, selection: BulkSelection) =>
    http.post<{ affected: number }>(`${LISTS}/${listId}/contacts/bulk`, { action, ...selection }),
};

export const importsApi = {
  preview: (id: number, settings: PreviewSettings) =>
    http.post<{ importId: number; preview: ImportPreview }>(`${IMPORTS}/${id}/preview`, settings, { silent: true }),
  start: (id: number, body: StartBody) => http.post<ImportDetails>(`${IMPORTS}/${id}/start`, body, { silent: true }),
  cancel: (id: number) => http.post<ImportDetails>(`${IMPORTS}/${id}/cancel`),
};

function headers(): Record<string, string> {
  const token = getToken();
  return { Accept: 'application/json', 'Accept-Language': currentLanguage(), ...(token ? { [TOKEN_HEADER]: token } : {}) };
}

/** The same reading of an error body as the JSON client's, for the calls made outside it. */
function errorOf(status: number, text: string): ApiError {
  let body: { message?: unknown; key?: unknown; fields?: unknown } = {};
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    // A proxy's HTML page or an empty body: the status alone describes the failure.
  }
  const message = typeof body.message === 'string' && body.message ? body.message : undefined;
  return new ApiError(status, message ?? i18n.t('api:failed', { status }), {
    key: typeof body.key === 'string' ? body.key : undefined,
    fields: Array.isArray(body.fields) ? (body.fields as FieldError[]) : undefined,
    fromServer: message !== undefined,
  });
}

/**
 * Sends a file with upload progress. XHR rather than the JSON client, whose 5 s timeout would cut off a large
 * file on a slow line and whose fetch cannot report how much has been sent.
 */
export function uploadImport(
  listId: number,
  file: File,
  onProgress: (percent: number) => void,
): Promise<{ importId: number; preview: ImportPreview }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${LISTS}/${listId}/imports`);
    for (const [name, value] of Object.entries(headers())) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        try {
          resolve(JSON.parse(xhr.responseText) as { importId: number; preview: ImportPreview });
          return;
        } catch {
          reject(errorOf(xhr.status, ''));
          return;
        }
      }
      reject(errorOf(xhr.status, xhr.responseText));
    };
    xhr.onerror = () => reject(new ApiError(0, i18n.t('errors:error.apiDown')));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}

/** The UTF-8 name of a Content-Disposition header, else its plain one. */
function fileNameOf(disposition: string | null): string | undefined {
  if (!disposition) return undefined;
  const encoded = /filename\*=UTF-8''([^;]+)/i.exec(disposition)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A malformed escape falls through to the plain name.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1];
}

/** Downloads a file that needs the session token (a plain link cannot send X-Token) and saves it through a blob URL. */
export async function downloadFile(path: string, query: Record<string, string | undefined>, fallbackName: string): Promise<void> {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.append(name, value);
  const search = params.toString();
  let response: Response;
  try {
    response = await fetch(`/api${path}${search ? `?${search}` : ''}`, { headers: headers() });
  } catch (cause) {
    const error = new ApiError(0, i18n.t('errors:error.apiDown'));
    error.cause = cause;
    reportError(error);
    throw error;
  }
  if (!response.ok) {
    const error = errorOf(response.status, await response.text());
    reportError(error);
    throw error;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = fileNameOf(response.headers.get('content-disposition')) ?? fallbackName;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked a moment later: some browsers start reading the blob only after click() has returned.
  window.setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const exportPath = (listId: number) => `${LISTS}/${listId}/export.csv`;
export const reportPath = (importId: number) => `${IMPORTS}/${importId}/report.csv`;
