/** A customer is identified by its client and its id: two clients may use the same customer id and never meet. */
export interface CustomerRef {
  clientId: string;
  customerId: string;
}

/** One string per customer, for maps keyed by customer. */
export function customerKey(clientId: string, customerId: string): string {
  return JSON.stringify([clientId, customerId]);
}
