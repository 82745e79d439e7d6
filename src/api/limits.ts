import { MAX_INGEST_TRANSACTIONS } from '../tasks/ingestion.js';
import { MAX_REPORT_PDF_BYTES } from '../reports/report-verify.js';
import { OP_INGEST_TRANSACTIONS_POST } from './schemas/ingest.schemas.js';
import { OP_OAUTH_TOKEN_POST } from './schemas/oauth.schemas.js';
import { OP_REPORT_VERIFY_POST } from './schemas/report-verify.schemas.js';

/**
 * The sizes the API accepts. Ids are bounded as at ingest (200 characters),
 * so that anything stored can be asked for again.
 */
export const MAX_ID_LENGTH = 200;

/** Any other JSON or form body: a bucket definition of 100 buckets fits many times over. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;

/**
 * HTTP ingest takes at most 1,000 transactions, 8 KB each: a transaction with
 * its text fields at their ingest maxima (description 1,000 characters, ids
 * 200, other text 500) in two-byte UTF-8 is under 7 KB, so a full request fits.
 */
export const INGEST_BODY_LIMIT = MAX_INGEST_TRANSACTIONS * 8 * 1024;

/** The token call's form body: a refresh token and the grant type. */
export const FORM_BODY_LIMIT = 16 * 1024;

/** A report PDF to verify, as the command line takes it. */
export const REPORT_PDF_BODY_LIMIT = MAX_REPORT_PDF_BYTES;

export function bodyLimitFor(operationId: string): number {
  if (operationId === OP_INGEST_TRANSACTIONS_POST) return INGEST_BODY_LIMIT;
  if (operationId === OP_REPORT_VERIFY_POST) return REPORT_PDF_BODY_LIMIT;
  if (operationId === OP_OAUTH_TOKEN_POST) return FORM_BODY_LIMIT;
  return DEFAULT_BODY_LIMIT;
}

/**
 * The raw length of a path segment Fastify accepts: an id of 200 characters,
 * each percent-encoded as up to 9 bytes (%XX%XX%XX). Longer segments cannot
 * name anything and get a 400 before routing.
 */
export const MAX_PATH_SEGMENT_BYTES = MAX_ID_LENGTH * 9;

/** Credential headers longer than this are treated as absent (a token is a few hundred bytes). */
export const MAX_CREDENTIAL_HEADER_LENGTH = 4096;

/** An error body lists at most this many fields, then says how many more there were. */
export const MAX_FIELD_ERRORS = 50;
