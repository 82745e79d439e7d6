/**
 * The one rule for turning instants into the store's timestamp text and
 * back. The store keeps instants as TIMESTAMP in UTC without a zone; rows
 * carry them as 'YYYY-MM-DD HH:MM:SS[.ffffff]', and parameters bind them as
 * the same text, which DuckDB casts to TIMESTAMP.
 */

/** An ISO instant in UTC ('…T…Z', as every validated instant is normalised) -> the store's timestamp text. */
export function dbFromIso(iso: string): string {
  return iso.replace('T', ' ').replace('Z', '');
}

/**
 * A JS instant as the store's timestamp text. Times come from this process's
 * clock, never DuckDB's, so that comparisons use one clock.
 */
export function dbTime(at: Date | number = new Date()): string {
  return dbFromIso(new Date(at).toISOString());
}

/** '2024-01-02 03:04:05.678' (UTC) -> '2024-01-02T03:04:05.678Z'; whole seconds lose the fraction. */
export function isoFromDb(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value);
  const [date, time = '00:00:00'] = s.split(' ');
  const [hms, frac] = time.split('.');
  return frac ? `${date}T${hms}.${frac.padEnd(3, '0').slice(0, 3)}Z` : `${date}T${hms}Z`;
}

/** The store's timestamp text -> milliseconds since the epoch. */
export function msFromDb(value: string): number {
  return Date.parse(isoFromDb(value) ?? '');
}

/** Microseconds since 1970 of a UTC instant written '…T…Z' or as the store's 'YYYY-MM-DD HH:MM:SS[.ffffff]': a version's order to the microsecond. */
export function microsOf(instant: string): number {
  const m = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z?$/.exec(instant);
  if (!m) return Number.NaN;
  const fraction = (m[3] ?? '').padEnd(6, '0');
  return Date.parse(`${m[1]}T${m[2]}Z`) * 1000 + Number(fraction.slice(0, 6));
}

/** A YYYY-MM-DD day means 00:00 UTC of that day; anything else is taken as an instant as written. */
export function dayOrInstant(value: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value;
}
