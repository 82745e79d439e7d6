import { firstInstant, lastInstant, monthsIn } from '../../domain/months.js';
import type { MonthlyTotalsRepository } from '../repositories/monthly-totals.repository.js';
import type { BucketsService } from './buckets.service.js';
import { resolveMonthRange, type RangeQuery } from './month-range.js';
import type { GroupLevel } from '../schemas/bucket-totals.schemas.js';
import { buildTotalsTree, type TotalsGroup } from './totals-tree.js';

export interface BucketTotalsQuery extends RangeQuery {
  group_by: GroupLevel[];
  currency: string;
}

export interface BucketTotals {
  groups: TotalsGroup[];
  metadata: { date_from: string; date_to: string; group_by: GroupLevel[]; currency: string };
}

export class BucketTotalsService {
  constructor(
    private readonly buckets: BucketsService,
    private readonly monthlyTotals: MonthlyTotalsRepository,
  ) {}

  async totals(clientId: string, customerId: string, bucketId: string, query: BucketTotalsQuery, now: Date = new Date()): Promise<BucketTotals> {
    const range = resolveMonthRange(query, now);
    const definition = await this.buckets.resolve(clientId, bucketId);
    const cells = await this.monthlyTotals.bucketCells(definition.bucketId, { clientId, customerId }, query.currency, range);
    const pairs = definition.body.buckets.flatMap((g) => g.criteria.map((c) => ({ bucket_l1: g.bucket_l1, bucket_l2: c.bucket_l2 })));
    const groups = buildTotalsTree({
      bucketId: definition.bucketId,
      levels: query.group_by,
      cells,
      pairs,
      range,
      months: monthsIn(range),
      currency: query.currency,
    });
    return {
      groups,
      metadata: { date_from: firstInstant(range.from), date_to: lastInstant(range.to), group_by: query.group_by, currency: query.currency },
    };
  }
}
