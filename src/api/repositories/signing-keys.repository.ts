import { randomBytes, randomUUID } from 'node:crypto';
import { queryFile } from '../../db/script.js';
import type { Store } from '../../db/store.js';
import { affordError } from '../../domain/errors.js';

/** The token signing key kept in the DB when none is configured: generated on first use, then kept. */
export class SigningKeysRepository {
  constructor(private readonly store: Store) {}

  async getOrCreate(): Promise<string> {
    return this.store.write(async (conn) => {
      await queryFile(conn, 'queries/api/ensure-signing-key', { key_id: randomUUID(), secret: randomBytes(32).toString('base64url') });
      const rows = await queryFile<{ secret: string }>(conn, 'queries/api/get-signing-key', {}, { secret: 'text' });
      const secret = rows[0]?.secret;
      if (!secret) throw affordError('SIGNING_KEY_MISSING', 'token');
      return secret;
    });
  }
}
