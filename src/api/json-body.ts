import type { FastifyInstance } from 'fastify';
import { LIMITS, nestsDeeperThan } from '../domain/event-limits.js';
import { validationError } from './errors.js';

/**
 * How deep any JSON body may nest: an ingestion body holds events two levels
 * down, so it is their limit, measured from the body. Deeper JSON would
 * overflow the stack of whatever walks it next (a schema, JSON.stringify of
 * a stored definition or of the answer that echoes it).
 */
export const MAX_JSON_BODY_DEPTH = LIMITS.jsonDepth + 2;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON bodies (application/json, and the JSON media types in
 * `otherJsonTypes`, such as the reference's ingestion types) must be valid UTF-8. Fastify's own parser decodes with
 * replacement characters, which would store text the client never sent;
 * this one refuses the body instead, then hands the text to Fastify's parser
 * (which keeps refusing `__proto__` and `constructor` keys), and refuses
 * JSON nested deeper than MAX_JSON_BODY_DEPTH.
 */
export function installStrictJsonParser(app: FastifyInstance, otherJsonTypes: readonly string[] = []): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(['application/json', ...otherJsonTypes], { parseAs: 'buffer' }, (request, body, done) => {
    // No body at all, whatever the Content-Type says (many clients send it on every call): a route that takes a body
    // answers that it is required, as its schema finds none; any other (a DELETE, an unknown path) answers as ever.
    if ((body as Buffer).length === 0) {
      done(null, undefined);
      return;
    }
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(validationError({ body: 'must be valid UTF-8' }), undefined);
      return;
    }
    parseJson(request, text, (err, value) => {
      if (!err && nestsDeeperThan(value, MAX_JSON_BODY_DEPTH)) done(validationError({ body: `nests deeper than ${MAX_JSON_BODY_DEPTH} levels` }), undefined);
      else done(err, value);
    });
  });
}
