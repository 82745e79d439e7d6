import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies (application/json, and the JSON media types in
 * `otherJsonTypes`, such as the reference's ingestion types) must be valid UTF-8. Fastify's own parser decodes with
 * replacement characters, which would store text the client never sent;
 * this one refuses the body instead, then hands the text to Fastify's parser
 * (which keeps refusing `__proto__` and `constructor` keys).
 */
export function installStrictJsonParser(app: FastifyInstance, otherJsonTypes: readonly string[] = []): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(['application/json', ...otherJsonTypes], { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(validationError({ body: 'must be valid UTF-8' }), undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
