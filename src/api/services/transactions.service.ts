import { dayOrInstant, dbTime, isoFromDb } from '../../domain/timestamps.js';
import { validationError } from '../errors.js';
import type { TransactionsRepository } from '../repositories/transactions.repository.js';
import { isDayOnly } from '../schemas/common.js';
import type { TransactionOut, TransactionsQuery } from '../schemas/transactions.schemas.js';
import type { BucketsService } from './buckets.service.js';
import { decodePageToken, encodePageToken } from './page-token.js';
import { transactionView } from './transaction-view.js';

export interface TransactionsPage {
  transactions: TransactionOut[];
  metadata: {
    results: number;
    next_page_token?: string;
    updated_after?: string;
    deleted?: { transaction_id: string; at: string }[];
  };
}

const DAY_MS = 24 * 3600 * 1000;

/** The first instant of a date_from: the instant itself, or 00:00 UTC of a YYYY-MM-DD day. */
function startOf(value: string): number {
  return Date.parse(dayOrInstant(value));
}

/**
 * The first instant after an inclusive date_to: the next day for a YYYY-MM-DD
 * day; for an instant given to the second (…T23:59:59Z), the end of that
 * second, so that the totals links' date_to covers the whole last second.
 */
function endAfter(value: string): number {
  if (isDayOnly(value)) return Date.parse(dayOrInstant(value)) + DAY_MS;
  const wholeSecond = !/:\d{2}\.\d+/.test(value);
  return Date.parse(value) + (wholeSecond ? 1000 : 1);
}

export class TransactionsService {
  constructor(
    private readonly transactions: TransactionsRepository,
    private readonly buckets: BucketsService,
  ) {}

  async list(clientId: string, customerId: string, q: TransactionsQuery): Promise<TransactionsPage> {
    const from = q.date_from !== undefined ? startOf(q.date_from) : undefined;
    const toExclusive = q.date_to !== undefined ? endAfter(q.date_to) : undefined;
    if (from !== undefined && toExclusive !== undefined && from >= toExclusive) throw validationError({ date_from: 'must not be after date_to' });
    if ((q.bucket_l1 !== undefined || q.bucket_l2 !== undefined) && q.bucket_id === undefined) {
      throw validationError({ bucket_id: 'is required with bucket_l1 or bucket_l2' });
    }
    const bucketId = q.bucket_id !== undefined ? (await this.buckets.resolve(clientId, q.bucket_id)).bucketId : undefined;
    const after = q.page_token !== undefined ? decodePageToken(q.page_token) : undefined;
    const updatedAfter = q.updated_after !== undefined ? dbTime(startOf(q.updated_after)) : undefined;

    const rows = await this.transactions.listPage({
      clientId,
      customerId,
      dateFrom: from !== undefined ? dbTime(from) : undefined,
      dateToExclusive: toExclusive !== undefined ? dbTime(toExclusive) : undefined,
      accountIds: q.account_id,
      categoryL1: q.category_l1,
      categoryL2: q.category_l2,
      creditDebitIndicator: q.credit_debit_indicator,
      currency: q.currency,
      statuses: q.status,
      merchant: q.merchant,
      includeTags: [...(q['include_tags[]'] ?? []), ...(q.include_tags ?? [])],
      excludeTags: [...(q['exclude_tags[]'] ?? []), ...(q.exclude_tags ?? [])],
      updatedAfter,
      bucketId,
      bucketL1: q.bucket_l1,
      bucketL2: q.bucket_l2,
      insights: q.insight,
      after,
      limit: q.page_size + 1,
    });

    const page = rows.slice(0, q.page_size);
    const last = page.at(-1);
    const metadata: TransactionsPage['metadata'] = { results: page.length };
    if (rows.length > q.page_size && last) metadata.next_page_token = encodePageToken({ dateTime: last.date_time, transactionId: last.transaction_id });
    if (updatedAfter !== undefined) {
      metadata.updated_after = new Date(startOf(q.updated_after ?? '')).toISOString();
      // As the reference: the transactions deleted since, so that a synced copy can drop them. They have no
      // date or category left to filter or page by, so all of them come once, on the first page.
      if (after === undefined) {
        const deleted = await this.transactions.deletedSince(clientId, customerId, updatedAfter);
        metadata.deleted = deleted.map((d) => ({ transaction_id: d.transaction_id, at: isoFromDb(d.updated_at) ?? '' }));
      }
    }
    return { transactions: page.map(transactionView), metadata };
  }
}
