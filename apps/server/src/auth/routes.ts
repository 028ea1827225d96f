/** Account and session routes at the spec's paths. */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db } from '../db/database.js';
import { headerLanguage } from '../http/language.js';
import { sessionOf } from './guard.js';
import * as s from './schemas.js';
import type { AuthDeps } from './service.js';
import * as auth from './service.js';

export const authRoutes: FastifyPluginAsyncTypebox<AuthDeps> = async (app, deps) => {
  const db: Db = deps.db;
  const tags = ['auth'];

  app.post(
    '/api/login',
    {
      config: { public: true },
      schema: { tags, summary: 'Log in (form-encoded)', body: s.LoginBody, response: { 200: s.TokenAnswer } },
    },
    async (request) => auth.login(deps, request.body.username, request.body.password, request.ip),
  );

  app.post(
    '/api/data/users',
    {
      config: { public: true },
      schema: { tags, summary: 'Sign up', body: s.SignupBody, response: { 200: s.TokenAnswer } },
    },
    async (request) => auth.signup(deps, request.body, request.ip),
  );

  app.get(
    '/api/logout',
    { config: { public: true }, schema: { tags, summary: 'Log out', response: { 200: s.OkAnswer } } },
    async (request) => {
      await auth.logout(db, request.session);
      return { status: 'ok' };
    },
  );

  app.get(
    '/api/data/users',
    { schema: { tags, summary: 'The logged-in user', response: { 200: s.UserInfo } } },
    async (request) => auth.userInfo(sessionOf(request)),
  );

  app.get(
    '/api/data/users/session',
    { schema: { tags, summary: 'Session check', response: { 200: s.SessionAnswer } } },
    async (request) => ({ status: 'valid' as const, roles: sessionOf(request).roles }),
  );

  app.post(
    '/api/data/users/change-password',
    { schema: { tags, summary: 'Change password', body: s.ChangePasswordBody, response: { 200: s.OkAnswer } } },
    async (request) => {
      await auth.changePassword(db, sessionOf(request), request.body);
      return { status: 'ok' };
    },
  );

  app.post(
    '/api/data/users/change-timezone',
    { schema: { tags, summary: 'Change time zone', body: s.ChangeTimeZoneBody, response: { 200: s.OkAnswer } } },
    async (request) => {
      await auth.changeTimeZone(db, sessionOf(request), request.body.id);
      return { status: 'ok' };
    },
  );

  app.post(
    '/api/data/users/avatar',
    {
      schema: {
        tags,
        summary: 'Choose a built-in avatar (plain-text body)',
        body: Type.String({ maxLength: 100 }),
        response: { 200: s.OkAnswer },
      },
    },
    async (request) => {
      await auth.changeAvatar(db, sessionOf(request), request.body);
      return { status: 'ok' };
    },
  );

  app.post(
    '/api/data/users/change-language',
    { schema: { tags, summary: 'Save the interface language', body: s.ChangeLanguageBody, response: { 200: s.OkAnswer } } },
    async (request) => {
      await auth.changeLanguage(db, sessionOf(request), request.body.language);
      return { status: 'ok' };
    },
  );

  app.post(
    '/api/data/users/change-name',
    {
      schema: {
        tags,
        summary: 'Set the name shown in the console (empty shows the e-mail)',
        body: s.ChangeNameBody,
        response: { 200: s.OkAnswer },
      },
    },
    async (request) => {
      await auth.changeDisplayName(db, sessionOf(request), request.body.name);
      return { status: 'ok' };
    },
  );

  app.post(
    '/api/data/users/delete-account',
    {
      schema: {
        tags,
        summary: 'Delete the account and all its data (confirmed by typing its e-mail); signs the user out',
        body: s.DeleteAccountBody,
        response: { 200: s.OkAnswer },
      },
    },
    async (request) => {
      await auth.deleteAccount(deps, sessionOf(request), request.body.confirmation);
      return { status: 'deleted' };
    },
  );

  app.post(
    '/api/data/users/switch-profile',
    {
      schema: {
        tags,
        summary: 'Switch usage profile; answers a new token',
        body: s.SwitchProfileBody,
        response: { 200: s.TokenAnswer },
      },
    },
    async (request) => auth.switchProfile(db, sessionOf(request), request.body.profile),
  );

  app.get(
    '/api/data/users/restore-password',
    {
      config: { public: true },
      schema: { tags, summary: 'Send a password reset link', querystring: s.RestorePasswordQuery, response: { 200: s.OkAnswer } },
    },
    async (request) => {
      await auth.requestPasswordReset(deps, request.query.email, headerLanguage(request.headers['accept-language']));
      return { status: 'sent' };
    },
  );

  app.post(
    '/api/data/users/reset-password',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Set a new password with a reset token',
        body: s.ResetPasswordBody,
        response: { 200: s.OkAnswer },
      },
    },
    async (request) => {
      await auth.resetPassword(db, request.body);
      return { status: 'ok' };
    },
  );
};
