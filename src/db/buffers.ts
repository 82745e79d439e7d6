import { momentaryDbSettings } from './db-settings.js';
import type { Store } from './store.js';

/** What DuckDB's buffers are brought down to. */
const RELEASED_TO = '64MB';

/**
 * Empties DuckDB's buffers down to 64MB, and gives them `limit` again.
 * DuckDB has no command for it: lowering its memory limit evicts what its
 * buffers hold beyond it (written to its temporary folder if it is not yet
 * in the file), and raising it again does not bring anything back. Before
 * the checkpoint after a job: a checkpoint allocates beside the buffers,
 * and with them full from the job, the one after the report job took
 * `afford jobs run all` on 2,000 customers from about 470 to 516 MiB; with
 * them emptied first, it stayed below the job's own peak. The limit is the
 * whole instance's: a read that needs more than 64MB in that moment fails
 * as DuckDB fails a read beyond its limit; no write runs in it. If DuckDB cannot evict enough
 * (blocks in use by a read), it says so and the buffers stay as they were.
 */
export async function releaseBuffers(store: Store, limit: string): Promise<void> {
  await momentaryDbSettings(store, { memory_limit: RELEASED_TO }, { memory_limit: limit })
    .catch((err: unknown) => store.logger.warn({ err }, 'could not empty DuckDB\'s buffers; the checkpoint runs with them as they are'));
}
