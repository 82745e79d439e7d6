/**
 * How an amount is written in an event, checked before it is ever a number:
 * the event schema and the fast path's hand-written check share these, and
 * neither needs decimal arithmetic for it.
 */

/**
 * An amount as sent in events: digits with at most 2 decimals, at most
 * 999,999,999.99. A monthly total in DECIMAL(18,2) then holds the sum of ten
 * million such amounts, and the API sums totals in DECIMAL(38,2).
 */
export const AMOUNT_PATTERN = /^(0|[1-9]\d{0,8})(\.\d{1,2})?$/;
/** The same bound, with a sign: running balances may be negative. */
export const SIGNED_AMOUNT_PATTERN = /^-?(0|[1-9]\d{0,8})(\.\d{1,2})?$/;
export const MAX_AMOUNT = '999999999.99';

/** Whether an amount that matches AMOUNT_PATTERN is above zero. */
export const isPositiveAmount = (value: string): boolean => /[1-9]/.test(value);
