import type { Store } from '../db/store.js';
import { affordError } from '../domain/errors.js';
import type { AffordabilityInsights, InsightsRequest } from './insights-model.js';

/** One customer's insights for one range; null when the customer does not exist. */
export async function buildInsights(store: Store, request: InsightsRequest, now: Date = new Date()): Promise<AffordabilityInsights | null> {
  void store; void request; void now;
  throw affordError('INVALID_ARGUMENT', 'insights are not computed yet');
}
