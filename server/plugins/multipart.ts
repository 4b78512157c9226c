/**
 * Multipart forms (the photo upload, the register's import), read only by the routes that take
 * one. @fastify/multipart adds two async hooks to every route of the context it is registered in
 * (onRequest and onResponse, for temporary files that nothing here saves): registered for the
 * whole app, every request paid for them.
 *
 * Elsewhere a multipart body is accepted and left unread, as @fastify/multipart's own parser
 * leaves it for a route that does not read it: such a route answers it as before (a route with a
 * body schema refuses the missing body, 400; one without a body ignores it), never 415.
 */
import fastifyMultipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { MAX_PHOTO_BYTES } from '../../common/constants.js';

const MULTIPART = 'multipart/form-data';

/** For the whole app: a multipart body for a route that takes no form is left unread. */
export const multipartBodiesLeftUnread = fp(
  async (app) => {
    app.addContentTypeParser(MULTIPART, (_request, _payload, done) => done(null));
  },
  { name: 'multipart-bodies-left-unread' },
);

/** For the context of the routes that read a form: @fastify/multipart, in place of the app's parser. */
export const multipartForms = fp(
  async (app) => {
    app.removeContentTypeParser(MULTIPART);
    await app.register(fastifyMultipart, {
      limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 4, parts: 6, fieldSize: 64 * 1024, headerPairs: 100 },
    });
  },
  { name: 'multipart-forms', dependencies: ['multipart-bodies-left-unread'] },
);
