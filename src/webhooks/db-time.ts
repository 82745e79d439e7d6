import { dbFromIso } from '../db/rows.js';

/** A JS instant as the UTC text DuckDB casts to TIMESTAMP. Times come from this process's clock, never DuckDB's, so that comparisons use one clock. */
export function dbTime(at: Date | number = new Date()): string {
  return dbFromIso(new Date(at).toISOString());
}
