/** Contact lists, contacts and imports under /api/data (ARCHITECTURE.md, API), for the on-site mailing profile. */
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { sessionOf } from '../auth/guard.js';
import type { DatabaseHandle, Db, Dialect } from '../db/database.js';
import { AppError, invalidField } from '../http/errors.js';
import { ImportRunner } from './import/runner.js';
import * as imports from './import/service.js';
import * as s from './schemas.js';
import * as contacts from './service.js';

export interface ContactRoutesOptions {
  db: Db;
  dialect: Dialect;
  holdConnection: DatabaseHandle['holdConnection'];
  dataDir: string;
  /** Largest import file accepted. */
  importMaxBytes: number;
}

const LISTS = '/api/data/contact-lists';
const IMPORTS = '/api/data/imports';

/** Names a download in a Content-Disposition header: an ASCII fallback plus the exact UTF-8 name. */
function attachment(fileName: string): string {
  const asciiName = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const contactRoutes: FastifyPluginAsyncTypebox<ContactRoutesOptions> = async (app, options) => {
  const { db, dialect, holdConnection, dataDir } = options;
  const runner = new ImportRunner({ db, dialect, holdConnection, dataDir, log: app.log });
  await runner.sweep();
  app.addHook('onClose', () => runner.close());

  const deps = { ...options, runner };
  const tags = ['contacts'];
  const config = { roles: ['site' as const, 'admin' as const] };
  const account = (request: FastifyRequest) => sessionOf(request).accountId;
  const requester = (request: FastifyRequest): imports.Requester => {
    const session = sessionOf(request);
    return { accountId: session.accountId, language: request.lang, timeZoneId: session.timeZoneId };
  };

  app.get(
    LISTS,
    {
      config,
      schema: {
        tags,
        summary: 'Contact lists with their counts, newest first',
        querystring: s.ListQuery,
        response: { 200: s.ListPage },
      },
    },
    async (request) => contacts.listLists(deps, account(request), request.query.page, request.query.size, request.query.search),
  );

  app.post(
    LISTS,
    { config, schema: { tags, summary: 'Create a contact list', body: s.ListBody, response: { 200: s.ListAnswer } } },
    async (request) => contacts.createList(deps, account(request), request.body),
  );

  app.get(
    `${LISTS}/:id`,
    {
      config,
      schema: { tags, summary: 'One contact list with its counts', params: s.ListParams, response: { 200: s.ListAnswer } },
    },
    async (request) => contacts.getList(deps, account(request), request.params.id),
  );

  app.put(
    `${LISTS}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Rename a list or change its default country (left out, the country stays)',
        params: s.ListParams,
        body: s.ListBody,
        response: { 200: s.ListAnswer },
      },
    },
    async (request) => contacts.updateList(deps, account(request), request.params.id, request.body),
  );

  app.delete(
    `${LISTS}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a list with its contacts and imports',
        params: s.ListParams,
        response: { 200: s.Status200 },
      },
    },
    async (request) => {
      await contacts.deleteList(deps, account(request), request.params.id);
      return { status: 'ok' };
    },
  );

  app.get(
    `${LISTS}/:id/contacts`,
    {
      config,
      schema: {
        tags,
        summary: 'A page of contacts, newest first, searched and filtered',
        params: s.ListParams,
        querystring: s.ContactQuery,
        response: { 200: s.ContactPage },
      },
    },
    async (request) => {
      const { page, size, ...filter } = request.query;
      return contacts.pageContacts(deps, account(request), request.params.id, filter, page, size);
    },
  );

  app.post(
    `${LISTS}/:id/contacts`,
    {
      config,
      schema: { tags, summary: 'Add a contact', params: s.ListParams, body: s.ContactBody, response: { 200: s.ContactAnswer } },
    },
    async (request) => contacts.createContact(deps, account(request), request.params.id, request.body),
  );

  app.post(
    `${LISTS}/:id/contacts/bulk`,
    {
      config,
      schema: {
        tags,
        summary: 'Delete or unsubscribe the given contacts, or all those passing a filter',
        params: s.ListParams,
        body: s.BulkBody,
        response: { 200: s.BulkAnswer },
      },
    },
    async (request) => {
      const { action, ids, filter } = request.body;
      if (ids === undefined && filter === undefined) throw invalidField('ids', { key: 'validation.mandatory' });
      if (ids !== undefined && filter !== undefined) throw invalidField('filter', { key: 'validation.invalidValue' });
      return contacts.bulkAction(deps, account(request), request.params.id, action, ids ? { ids } : { filter: filter! });
    },
  );

  app.get(
    `${LISTS}/:id/contacts/:contactId`,
    { config, schema: { tags, summary: 'One contact', params: s.ContactParams, response: { 200: s.ContactAnswer } } },
    async (request) => contacts.getContact(deps, account(request), request.params.id, request.params.contactId),
  );

  app.put(
    `${LISTS}/:id/contacts/:contactId`,
    {
      config,
      schema: {
        tags,
        summary: "Replace a contact's fields (a status left out stays)",
        params: s.ContactParams,
        body: s.ContactBody,
        response: { 200: s.ContactAnswer },
      },
    },
    async (request) => contacts.updateContact(deps, account(request), request.params.id, request.params.contactId, request.body),
  );

  app.delete(
    `${LISTS}/:id/contacts/:contactId`,
    { config, schema: { tags, summary: 'Delete a contact', params: s.ContactParams, response: { 200: s.Status200 } } },
    async (request) => {
      await contacts.deleteContact(deps, account(request), request.params.id, request.params.contactId);
      return { status: 'ok' };
    },
  );

  app.get(
    `${LISTS}/:id/export.csv`,
    {
      config,
      schema: {
        tags,
        summary: 'The list (or the contacts passing a filter) as CSV; cells a spreadsheet would run as formulas are escaped',
        params: s.ListParams,
        querystring: s.ContactFilter,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const download = await contacts.exportContacts(deps, account(request), request.params.id, request.query);
      return reply
        .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': attachment(download.fileName) })
        .send(Readable.from(download.lines));
    },
  );

  app.post(
    `${LISTS}/:id/imports`,
    {
      config,
      schema: {
        tags,
        summary: 'Upload a CSV or TXT file (multipart field "file"); answers the detected settings and the first 10 records',
        params: s.ListParams,
        consumes: ['multipart/form-data'],
        body: s.UploadForm,
        response: { 200: s.PreviewAnswer },
      },
      // The handler streams the multipart body itself; the body schema only documents the form.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'upload.wrongFile');
      return imports.receiveUpload(deps, requester(request), request.params.id, {
        declaredBytes: Number(request.headers['content-length'] ?? 0),
        file: (limitBytes) => request.file({ limits: { fileSize: limitBytes, files: 1 } }),
      });
    },
  );

  app.get(
    `${LISTS}/:id/imports`,
    {
      config,
      schema: {
        tags,
        summary: "The list's imports, newest first",
        params: s.ListParams,
        querystring: s.ImportQuery,
        response: { 200: s.ImportPage },
      },
    },
    async (request) => imports.listImports(deps, requester(request), request.params.id, request.query.page, request.query.size),
  );

  app.get(
    `${IMPORTS}/:id`,
    {
      config,
      schema: {
        tags,
        summary: 'An import: status, progress, counts and its preview',
        params: s.ImportParams,
        response: { 200: s.ImportWithPreview },
      },
    },
    async (request) => imports.getImport(deps, requester(request), request.params.id),
  );

  app.post(
    `${IMPORTS}/:id/preview`,
    {
      config,
      schema: {
        tags,
        summary: 'Read the file again with another encoding, separator or header setting',
        params: s.ImportParams,
        body: s.PreviewBody,
        response: { 200: s.PreviewAnswer },
      },
    },
    async (request) => imports.changePreview(deps, requester(request), request.params.id, request.body),
  );

  app.post(
    `${IMPORTS}/:id/start`,
    {
      config,
      schema: {
        tags,
        summary: 'Start (or start again) an import with a column mapping and a mode: add, update or replace',
        params: s.ImportParams,
        body: s.StartBody,
        response: { 200: s.ImportWithPreview },
      },
    },
    async (request) => imports.startImport(deps, requester(request), request.params.id, request.body),
  );

  app.post(
    `${IMPORTS}/:id/cancel`,
    {
      config,
      schema: {
        tags,
        summary: 'Cancel an import; a running one stops within a second and leaves its list untouched',
        params: s.ImportParams,
        response: { 200: s.ImportWithPreview },
      },
    },
    async (request) => imports.cancelImport(deps, requester(request), request.params.id),
  );

  app.get(
    `${IMPORTS}/:id/report.csv`,
    {
      config,
      schema: {
        tags,
        summary: 'The invalid rows of an import: line, reason, row',
        params: s.ImportParams,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const report = await imports.openReport(deps, account(request), request.params.id);
      return reply
        .headers({ 'content-type': 'text/csv; charset=utf-8', 'content-disposition': attachment(report.fileName) })
        .send(report.stream);
    },
  );
};
