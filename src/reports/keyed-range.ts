import type { MonthRange } from '../domain/months.js';

/** A range as the SQL names it: the nightly job computes several in one pass. */
export interface KeyedRange {
  key: string;
  range: MonthRange;
}
