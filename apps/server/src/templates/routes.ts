/** Template, template category and template variable routes under /api/data (ARCHITECTURE.md, API). */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorText } from '@herald/shared/error-messages';
import type { FastifyError } from 'fastify';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import { AppError } from '../http/errors.js';
import * as s from './schemas.js';
import type { TemplatesDeps } from './service.js';
import * as templates from './service.js';

const CATEGORIES = '/api/data/template-categories';
const TEMPLATES = '/api/data/templates';
const VARIABLES = '/api/data/template-variables';

/** Room for a template just under the 5 MB content limit plus JSON escaping; the service checks the 5 MB itself. */
const TEMPLATE_BODY_LIMIT = 6 * 1024 * 1024;

export const templateRoutes: FastifyPluginAsyncTypebox<TemplatesDeps> = async (app, deps) => {
  const tags = ['templates'];
  const { db } = deps;
  const account = (request: Parameters<typeof sessionOf>[0]) => sessionOf(request).accountId;
  const ok = { status: 'ok' };

  // Bodies past the route limit get the template limit's message; everything else goes on to the app's handler.
  app.setErrorHandler((error: FastifyError, request) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && request.routeOptions.bodyLimit === TEMPLATE_BODY_LIMIT)
      throw templates.templateTooLarge();
    throw error;
  });

  app.get(
    CATEGORIES,
    {
      schema: {
        tags,
        summary: 'Template categories with their template counts',
        response: { 200: Type.Array(s.CategoryAnswer) },
      },
    },
    async (request) => templates.listCategories(db, account(request)),
  );

  app.post(
    CATEGORIES,
    { schema: { tags, summary: 'Create a template category', body: s.CategoryBody, response: { 200: s.CategoryAnswer } } },
    async (request) => templates.createCategory(db, account(request), request.body.name),
  );

  app.get(
    `${CATEGORIES}/current`,
    { schema: { tags, summary: 'The current template category', response: { 200: s.CurrentCategory } } },
    async (request) => templates.currentCategory(db, account(request)),
  );

  app.post(
    `${CATEGORIES}/current`,
    {
      schema: {
        tags,
        summary: 'Set the current template category (null for none)',
        body: s.CurrentCategory,
        response: { 200: s.CurrentCategory },
      },
    },
    async (request) => templates.setCurrentCategory(db, account(request), request.body.categoryId),
  );

  app.put(
    `${CATEGORIES}/:id`,
    {
      schema: {
        tags,
        summary: 'Rename a template category',
        params: s.IdParams,
        body: s.CategoryBody,
        response: { 200: s.CategoryAnswer },
      },
    },
    async (request) => templates.renameCategory(db, account(request), request.params.id, request.body.name),
  );

  app.delete(
    `${CATEGORIES}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a template category; its templates stay, without a category',
        params: s.IdParams,
        response: { 200: s.StatusAnswer },
      },
    },
    async (request) => {
      await templates.deleteCategory(db, account(request), request.params.id);
      return ok;
    },
  );

  app.get(
    TEMPLATES,
    {
      schema: {
        tags,
        summary: 'Templates by category, channel and name/subject search (no bodies)',
        querystring: s.TemplateQuery,
        response: { 200: s.TemplatePage },
      },
    },
    async (request) => templates.listTemplates(db, account(request), request.query),
  );

  app.post(
    TEMPLATES,
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Create a template; refused with line and column on a Liquid syntax error or unknown variable',
        body: s.TemplateBody,
        response: { 200: s.TemplateAnswer },
      },
    },
    async (request) => templates.createTemplate(db, account(request), request.body),
  );

  app.post(
    `${TEMPLATES}/upload-html`,
    {
      schema: {
        tags,
        summary: 'Read an .html/.htm file (at most 2 MB) for the editor; nothing is stored',
        consumes: ['multipart/form-data'],
        body: s.UploadForm,
        response: { 200: s.UploadAnswer },
      },
      // The handler reads the multipart stream itself; the body schema only documents the form.
      validatorCompiler: () => () => true,
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'error.badRequest');
      return templates.readHtmlUpload(await request.file(templates.UPLOAD_LIMITS));
    },
  );

  app.post(
    `${TEMPLATES}/preview`,
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Render a stored template (name) or unsaved fields for a contact, sample data or a built-in sample',
        body: s.PreviewBody,
        response: { 200: s.PreviewAnswer },
      },
    },
    async (request) => templates.preview(db, account(request), request.body),
  );

  app.post(
    `${TEMPLATES}/check`,
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'The save-time check of unsaved fields: every syntax error and unknown variable with its position',
        body: s.CheckBody,
        response: { 200: s.CheckAnswer },
      },
    },
    async (request) =>
      templates.checkDraft(db, account(request), request.body, (key, params) => errorText(key, request.lang, params)),
  );

  app.get(
    `${TEMPLATES}/:name`,
    { schema: { tags, summary: 'One template with all its parts', params: s.NameParams, response: { 200: s.TemplateAnswer } } },
    async (request) => templates.getTemplate(db, account(request), request.params.name),
  );

  app.put(
    `${TEMPLATES}/:name`,
    {
      bodyLimit: TEMPLATE_BODY_LIMIT,
      schema: {
        tags,
        summary: 'Replace a template (the body name may rename it; a left-out builder is cleared)',
        params: s.NameParams,
        body: s.TemplateBody,
        response: { 200: s.TemplateAnswer },
      },
    },
    async (request) => templates.updateTemplate(db, account(request), request.params.name, request.body),
  );

  app.delete(
    `${TEMPLATES}/:name`,
    { schema: { tags, summary: 'Delete a template', params: s.NameParams, response: { 200: s.StatusAnswer } } },
    async (request) => {
      await templates.deleteTemplate(db, account(request), request.params.name);
      return ok;
    },
  );

  app.post(
    `${TEMPLATES}/:name/copy`,
    {
      schema: {
        tags,
        summary: 'Copy a template under a new name',
        params: s.NameParams,
        body: s.CopyBody,
        response: { 200: s.TemplateAnswer },
      },
    },
    async (request) => templates.copyTemplate(db, account(request), request.params.name, request.body.newName),
  );

  app.post(
    `${TEMPLATES}/:name/test-send`,
    {
      schema: {
        tags,
        summary: 'Send a stored template now to an address or phone through one provider config',
        params: s.NameParams,
        body: s.TestSendBody,
        response: { 200: s.TestSendAnswer },
      },
    },
    async (request) => templates.testSend(deps, account(request), request.params.name, request.body),
  );

  app.get(
    VARIABLES,
    { schema: { tags, summary: "The account's template variables", response: { 200: Type.Array(s.VariableAnswer) } } },
    async (request) => templates.listVariables(db, account(request)),
  );

  app.post(
    VARIABLES,
    { schema: { tags, summary: 'Create a template variable', body: s.VariableBody, response: { 200: s.VariableAnswer } } },
    async (request) => templates.createVariable(db, account(request), request.body),
  );

  app.put(
    `${VARIABLES}/:name`,
    {
      schema: {
        tags,
        summary: 'Change a template variable (name and value)',
        params: s.NameParams,
        body: s.VariableBody,
        response: { 200: s.VariableAnswer },
      },
    },
    async (request) => templates.updateVariable(db, account(request), request.params.name, request.body),
  );

  app.delete(
    `${VARIABLES}/:name`,
    { schema: { tags, summary: 'Delete a template variable', params: s.NameParams, response: { 200: s.StatusAnswer } } },
    async (request) => {
      await templates.deleteVariable(db, account(request), request.params.name);
      return ok;
    },
  );
};
