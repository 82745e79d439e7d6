/**
 * Every size an event may have. The API reads what ingest stores, so its
 * limits are the same numbers: an id that ingest accepts can always be named
 * in a request.
 */
export const LIMITS = {
  /** Every identifier (event, client, customer, account, transaction, application, payment). */
  id: 200,
  description: 1000,
  /** Any other free text: names, providers, labels, tags, urls. */
  text: 500,
  /** Codes and slugs: currencies, categories, statuses, confidences. */
  code: 100,
  tags: 50,
  balances: 50,
  predictedDates: 100,
  secondaryApplicants: 20,
  accountsConnected: 10_000,
  /** Nesting of a whole event; the deepest field an event defines is 6 levels down. */
  jsonDepth: 32,
  /** One raw event (a line of a file, a Kafka message), in UTF-8 bytes. */
  rawBytes: 64 * 1024,
  /** Characters of an over-long raw event kept in its dead letter. */
  rawPrefixChars: 1024,
  /** Field errors named in one reason. */
  reasonIssues: 5,
  /** Characters of one field error in a reason. */
  issueChars: 200,
} as const;

/**
 * Whether a parsed JSON value nests deeper than `max` arrays and objects.
 * Iterative, so that a hostile value cannot overflow the stack here; the
 * schema is only run on values that pass.
 */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<{ v: unknown; depth: number }> = [{ v: value, depth: 0 }];
  while (stack.length > 0) {
    const { v, depth } = stack.pop() as { v: unknown; depth: number };
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v as Record<string, unknown>)) {
      if (child !== null && typeof child === 'object') stack.push({ v: child, depth: depth + 1 });
    }
  }
  return false;
}
