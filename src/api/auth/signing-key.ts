import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import { SigningKeysRepository } from '../repositories/signing-keys.repository.js';

/** AFFORD_TOKEN_SECRET when set; otherwise the key generated once and kept in the DB. */
export async function resolveSigningSecret(config: Config, store: Store): Promise<string> {
  if (config.AFFORD_TOKEN_SECRET) return config.AFFORD_TOKEN_SECRET;
  return new SigningKeysRepository(store).getOrCreate();
}
