/** The feedback form's call (spec section 7) and the admin's view of what was sent. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AppError } from '../http/errors.js';
import * as s from './schemas.js';
import type { FeedbackDeps } from './service.js';
import * as feedback from './service.js';

/** Names the download in a Content-Disposition header: an ASCII fallback plus the exact UTF-8 name. */
function contentDisposition(fileName: string): string {
  const asciiName = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `inline; filename="${asciiName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export const feedbackRoutes: FastifyPluginAsyncTypebox<FeedbackDeps> = async (app, deps) => {
  const tags = ['feedback'];

  app.post(
    '/api/feedback',
    {
      schema: {
        tags,
        summary: 'Send feedback with up to 5 png or jpeg images (multipart: name, email, desc, file0..file4)',
        consumes: ['multipart/form-data'],
        body: s.FeedbackForm,
        response: { 200: s.FeedbackCreated },
      },
      // The handler reads the multipart stream itself and checks every field; the body schema only documents the form.
      validatorCompiler: () => () => true,
      // The button is on every screen, the login page's too: a visitor's feedback belongs to no account.
      config: { public: true },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError(415, 'error.badRequest');
      // Before the upload is read, so a refused sender's files never reach the disk.
      await deps.throttle.take(request.ip);
      return feedback.submitFeedback(deps, request.session?.accountId ?? null, request.parts(feedback.FEEDBACK_FORM_LIMITS));
    },
  );

  app.get(
    '/api/data/feedback',
    {
      config: { roles: ['admin'] },
      schema: {
        tags,
        summary: 'Feedback sent by all accounts, newest first',
        querystring: s.FeedbackPageQuery,
        response: { 200: s.FeedbackPage },
      },
    },
    async (request) => feedback.listFeedback(deps.db, request.query.page, request.query.size),
  );

  app.get(
    '/api/data/feedback/files/:id',
    {
      config: { roles: ['admin'] },
      schema: { tags, summary: 'One attached image', params: s.FeedbackFileParams, produces: ['image/png', 'image/jpeg'] },
    },
    async (request, reply) => {
      const file = await feedback.openFeedbackFile(deps, request.params.id);
      return reply
        .headers({
          'content-type': file.mimeType,
          'content-length': file.sizeBytes,
          'content-disposition': contentDisposition(file.fileName),
          'x-content-type-options': 'nosniff',
        })
        .send(file.stream);
    },
  );
};
