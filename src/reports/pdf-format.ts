/**
 * Amounts, dates and times as a person reads them on the PDF: "£1,234.56",
 * "-£57.10", "23 November 2026 at 07:45 UTC". The JSON keeps its exact
 * strings; only the PDF formats them. Intl formats the decimal string itself
 * (never a float), so every penny of the report survives formatting.
 */

const formatters = new Map<string, Intl.NumberFormat>();

function formatterFor(currency: string): Intl.NumberFormat {
  let f = formatters.get(currency);
  if (!f) {
    // Always two places: the report's amounts are exact to the penny, in any currency.
    f = new Intl.NumberFormat('en-GB', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
    formatters.set(currency, f);
  }
  return f;
}

const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * '-1234.5' in GBP -> '-£1,234.50'. A negative amount keeps its minus sign in
 * front of the symbol; zero is never shown as '-£0.00'.
 */
export function formatMoney(value: string, currency: string): string {
  if (!DECIMAL.test(value)) return value;
  const zero = /^-?0+(\.0+)?$/.test(value);
  // format() takes the decimal string exactly (Intl.NumberFormat v3): no float on the way.
  return formatterFor(currency).format((zero ? '0' : value) as unknown as number);
}

export function isNegative(value: string): boolean {
  return value.startsWith('-') && !/^-0+(\.0+)?$/.test(value);
}

/** A whole count with thousands separators: 12345 -> '12,345'. */
export function formatCount(n: number): string {
  return n.toLocaleString('en-GB');
}

/** A share as a percentage with one decimal: '0.2012' -> '20.1%'. */
export function formatPercent(ratio: string | number): string {
  const n = Number(ratio);
  if (!Number.isFinite(n)) return String(ratio);
  return `${(n * 100).toFixed(1)}%`;
}

const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const SHORT_MONTH_NAMES = MONTH_NAMES.map((m) => m.slice(0, 3));

/** 'YYYY-MM' -> 'January 2024'. */
export function longMonth(month: string): string {
  const [y, m] = month.split('-');
  return `${MONTH_NAMES[Number(m) - 1] ?? m} ${y}`;
}

/** 'YYYY-MM-DD...' -> '5 Jan 2024'. */
export function shortDate(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  return `${Number(m[3])} ${SHORT_MONTH_NAMES[Number(m[2]) - 1] ?? m[2]} ${m[1]}`;
}

/** An ISO instant -> '23 November 2026 at 07:45 UTC'. */
export function readableInstant(iso: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(iso);
  if (!m) return iso;
  return `${Number(m[3])} ${MONTH_NAMES[Number(m[2]) - 1] ?? m[2]} ${m[1]} at ${m[4]}:${m[5]} UTC`;
}
