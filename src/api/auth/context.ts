import { apiError } from '../errors.js';
import type { CustomerRef } from '../../domain/customer-ref.js';

/** Who a request acts for, once authenticated. */
export interface AuthContext {
  clientId: string;
  /** Set on customer routes only, after the customer has been checked. */
  customerId?: string;
}


/** How much a route asks of the caller. */
export type AuthLevel = 'none' | 'client' | 'customer';

export function requireCustomer(auth: AuthContext | null): CustomerRef {
  if (!auth?.customerId) throw apiError('UNAUTHORISED');
  return { clientId: auth.clientId, customerId: auth.customerId };
}

export function requireClient(auth: AuthContext | null): AuthContext {
  if (!auth) throw apiError('UNAUTHORISED');
  return auth;
}
