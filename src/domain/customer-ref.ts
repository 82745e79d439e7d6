/** A customer is identified by its client and its id: two clients may use the same customer id and never meet. */
export interface CustomerRef {
  clientId: string;
  customerId: string;
}

/**
 * One string per customer, for maps keyed by customer: the client id's
 * length first, so that no two pairs give the same key whatever characters
 * the ids hold. Cheap, because reads of thousands of rows key every row.
 */
export function customerKey(clientId: string, customerId: string): string {
  return `${clientId.length}:${clientId}:${customerId}`;
}
