import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import cron from 'node-cron';
import { closest, distance } from 'fastest-levenshtein';
import { z } from 'zod';
import { affordError } from './domain/errors.js';
import { v8FlagsProblem } from './v8-flag-names.js';

/**
 * Every setting is an environment variable. `afford --help` and the README
 * list them from this table, so the three never disagree.
 */
interface Setting {
  readonly name: string;
  readonly default?: string;
  readonly description: string;
}

export const SETTINGS: readonly Setting[] = [
  { name: 'AFFORD_DB', default: './data/afford.duckdb', description: "DuckDB file that holds all data: a file afford made (another program's database, or one a newer afford wrote, is refused), outside AFFORD_EXPORT_DIR and AFFORD_REPORTS_DIR" },
  { name: 'AFFORD_DB_CHECKPOINT_THRESHOLD', default: '64MB', description: "how much the write-ahead log may hold before DuckDB writes it into the DB file (DuckDB's checkpoint_threshold): until then DuckDB keeps the rows in memory too, and spills them to disk once its memory is full, which slowed a long ingest as it went; the log is on disk, so nothing is lost on a crash, and it is replayed on the next start. A transaction of 16,384 rows or more of a table (an ingest batch of 25,000) writes them into the file directly, and only where they are goes into the log. The nightly jobs run with 1GB and checkpoint when each ends" },
  { name: 'AFFORD_DB_CHECKPOINT_CHANGED_ROWS', default: '100000', description: "how many stored rows writes may delete or update (a transaction's older version, a customer-month's monthly totals rewritten) before afford writes the log into the DB file (a CHECKPOINT): DuckDB keeps the old version of every such row in memory it cannot free until then, and the log, which records a deletion in a few bytes, hardly grows with them; events in time order, as a Kafka stream brings them, rewrite the current month's totals of every customer in every batch, and without it ran DuckDB out of memory part-way through 4,000 customers. 0 leaves checkpoints to AFFORD_DB_CHECKPOINT_THRESHOLD alone" },
  { name: 'AFFORD_DB_MEMORY_LIMIT', default: '96MB', description: "most memory DuckDB may use for its buffers and caches during ingest and reads (DuckDB's memory_limit; larger work spills to disk beside the DB file), so memory stays flat however large the data; the nightly jobs run with AFFORD_JOBS_DB_MEMORY_LIMIT" },
  { name: 'AFFORD_DB_READERS', default: '2', description: "most reads DuckDB runs at once (API reads its answer cache does not hold, CLI reads, a job's reads); more wait their turn. Each holds DuckDB buffers under AFFORD_DB_MEMORY_LIMIT, and four uncached affordability reports at once ran DuckDB out of 96MB, answering 500; on two cores, more at once are no faster. Ingest's one writer is not counted" },
  { name: 'AFFORD_DB_THREADS', default: '1', description: "threads DuckDB runs each query on (DuckDB's threads setting, the whole instance's) for ingest and API reads: their queries are a batch or one customer, where a second thread cost more than it saved; the rebuild and export jobs, which scan whole tables, use every core while they run" },
  { name: 'AFFORD_V8_FLAGS', default: '--heap-growing-percent=50', description: "V8 flags every afford process applies as it starts, separated by spaces: by default the JavaScript heap grows by at most 50% over what survived its last full collection, so garbage does not pile up to hundreds of MB ('--heap-growing-percent=0' gives V8's own growth back); flags V8 reads only at start-up, such as heap sizes, go on the node command line instead. A flag this Node's V8 does not have, or a value of the wrong kind, is refused (V8 would only print a line and run without it), and so are --help and the flags that put V8's collector on one thread (--single-threaded, --single-threaded-gc, --predictable) or turn its compilers off (--jitless), which V8 takes only as the process starts" },
  { name: 'AFFORD_READ_CACHE_MB', default: '256', description: "most memory the API's cache of customers' answers may hold (0 turns it off); a committed write drops the answers it changes" },
  { name: 'AFFORD_HOST', default: '127.0.0.1', description: 'address the API listens on' },
  { name: 'AFFORD_PORT', default: '8080', description: 'port the API listens on' },
  { name: 'AFFORD_API_REQUEST_TIMEOUT_MS', default: '30000', description: 'longest a request may take to arrive whole, headers and body; a slower one gets 408 and its connection is closed, so that a client that stops part-way holds neither a connection nor a shutdown' },
  { name: 'AFFORD_LOG_LEVEL', default: 'info', description: 'pino level: fatal, error, warn, info, debug, trace, silent' },
  { name: 'AFFORD_NIGHTLY_CRON', default: '0 2 * * *', description: 'cron schedule (UTC) of the nightly jobs' },
  { name: 'AFFORD_INGEST_BATCH_ROWS', default: '25000', description: 'largest batch written in one DuckDB transaction' },
  { name: 'AFFORD_KAFKA_BROKERS', description: 'comma list of Kafka brokers; unset means no Kafka consumer' },
  { name: 'AFFORD_KAFKA_TOPICS', default: 'afford.transactions.v1,afford.accounts.v1,afford.customers.v1,afford.payments.v1', description: 'comma list of topics to consume' },
  { name: 'AFFORD_KAFKA_GROUP_ID', default: 'afford', description: 'Kafka consumer group id' },
  { name: 'AFFORD_KAFKA_CLIENT_ID', default: 'afford', description: 'Kafka client id' },
  { name: 'AFFORD_KAFKA_SSL', default: 'false', description: 'use TLS to the brokers (true/false)' },
  { name: 'AFFORD_KAFKA_SASL_MECHANISM', description: 'plain, scram-sha-256 or scram-sha-512; unset means no SASL' },
  { name: 'AFFORD_KAFKA_SASL_USERNAME', description: 'SASL user name' },
  { name: 'AFFORD_KAFKA_SASL_PASSWORD', description: 'SASL password' },
  { name: 'AFFORD_KAFKA_BATCH_BYTES', default: '1048576', description: 'most bytes fetched per partition per batch' },
  { name: 'AFFORD_KAFKA_BATCH_WAIT_MS', default: '100', description: 'longest a Kafka message waits for others to join its DuckDB transaction' },
  { name: 'AFFORD_KAFKA_SESSION_TIMEOUT_MS', default: '30000', description: 'Kafka consumer session timeout: how soon the group notices a dead worker' },
  { name: 'AFFORD_SHARD', default: '0/1', description: 'k/n: this worker owns the partitions p with p mod n = k' },
  { name: 'AFFORD_CLIENT_STATE_TOPIC', description: 'compacted Kafka topic that carries API clients, bucket definitions and webhook subscriptions to every shard; unset means they live in this DuckDB file only' },
  { name: 'AFFORD_CLIENT_STATE_WAIT_MS', default: '10000', description: 'with AFFORD_CLIENT_STATE_TOPIC: longest a call waits for this shard to apply that topic up to its end before answering 503' },
  { name: 'AFFORD_JOBS_DB_MEMORY_LIMIT', default: '128MB', description: "DuckDB's memory_limit while a nightly job runs (the whole instance's, set back to AFFORD_DB_MEMORY_LIMIT when it ends): kept low, as a job holds more of its own beside DuckDB (report rows and JSON, Parquet writers); raise it with AFFORD_DB_MEMORY_LIMIT when you give DuckDB more memory" },
  { name: 'AFFORD_JOBS_DB_THREADS', default: '1', description: "DuckDB's threads per query while the nightly report job runs (the whole instance's setting, set back when the job ends): the job reads many small queries two at a time, and one thread each costs less CPU than spreading each over every core" },
  { name: 'AFFORD_JOBS_SLICE_CUSTOMERS', default: '50', description: 'customers per slice of the nightly report job, and of the reports the export writes: each slice is read, assembled and stored (or exported) before the next, so memory does not grow with the number of customers' },
  { name: 'AFFORD_JOBS_SLICE_TRANSACTIONS', default: '250000', description: 'transactions per slice of the nightly rebuild of the monthly totals: it computes, compares and writes one range of customers at a time, so that the memory it needs is a slice\'s, not the whole store\'s' },
  { name: 'AFFORD_EXPORT_DIR', default: './data/export', description: 'folder the export-parquet job writes to' },
  { name: 'AFFORD_REPORTS_DIR', description: 'when set, the nightly report job also writes a PDF per customer here' },
  { name: 'AFFORD_TOKEN_SECRET', description: 'key (at least 32 characters) that signs API access tokens; unset means one generated once and kept in the DB' },
  { name: 'AFFORD_WEBHOOK_RETRY_BASE_MS', default: '2000', description: 'webhook redelivery: delay before the first redelivery (doubles each time, with jitter)' },
  { name: 'AFFORD_WEBHOOK_RETRY_CAP_MS', default: '3600000', description: 'webhook redelivery: longest delay between two attempts' },
  { name: 'AFFORD_WEBHOOK_TIMEOUT_MS', default: '10000', description: "webhook delivery: how long to wait for the receiver's response (a timeout is retried)" },
  { name: 'AFFORD_REFRESH_TIMEOUT_MS', default: '60000', description: 'refresh task: how long to wait for ingestion to catch up before failing with internal_timeout' },
];

const V8_FLAGS_DEFAULT = SETTINGS.find((s) => s.name === 'AFFORD_V8_FLAGS')?.default;

/** What AFFORD_V8_FLAGS may hold: V8 options, `--name` or `--name=value`, separated by spaces. */
export const V8_FLAGS_PATTERN = /^\s*(--[a-z0-9_-]+(=[^\s]+)?\s*)*$/i;

const SIZE_UNITS: Record<string, number> = { kb: 1e3, mb: 1e6, gb: 1e9, tb: 1e12, kib: 2 ** 10, mib: 2 ** 20, gib: 2 ** 30, tib: 2 ** 40 };
/** The most any size setting may be: 1 PB, far past any machine, and well within what DuckDB and JavaScript count exactly. */
const MAX_SIZE_BYTES = 1e15;

/**
 * A size as DuckDB takes it, such as 256MB or 1GiB, of at least `minBytes`
 * (a memory limit of 0MB or 1KB made every command fail with DuckDB's own
 * out-of-memory text, naming no setting); `example` goes into the message.
 */
const sizeString = (example: string, minBytes: number, minText: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i, `must be a size such as ${example}`)
    .refine((s) => {
      const [, amount, unit] = /^(\d+(?:\.\d+)?)\s*(\w+)$/.exec(s) ?? [];
      const bytes = Number(amount) * (SIZE_UNITS[String(unit).toLowerCase()] ?? NaN);
      return bytes >= minBytes && bytes <= MAX_SIZE_BYTES;
    }, `must be from ${minText} to 1000TB`);

/** Where no file of the store or its outputs may be: the kernel's own folders (Node's recursive mkdir spins there for ever). */
const SYSTEM_FOLDERS = ['/proc', '/sys', '/dev'];
/** True when `file` is `folder` or anywhere under it (both absolute). */
const underFolder = (file: string, folder: string): boolean => {
  const rel = path.relative(folder, file);
  return rel === '' || (rel.split(path.sep)[0] !== '..' && !path.isAbsolute(rel));
};

/**
 * Where a path leads once its links are followed: the longest part of it
 * that exists, resolved by the file system, and the rest as written. A
 * store reached through a link into the export folder is in that folder.
 */
function followed(p: string): string {
  const absolute = path.resolve(p);
  let existing = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(realpathSync(existing), ...rest);
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return absolute;
      rest.unshift(path.basename(existing));
      existing = parent;
    }
  }
}

/**
 * A path setting: trimmed, not blank, a local path (DuckDB reads `s3://`,
 * `md:` and the like by downloading an extension into the process), and not
 * under the kernel's folders.
 */
const pathString = z
  .string()
  .transform((s) => s.trim())
  .refine((s) => s !== '', 'must not be blank')
  .refine((s) => !/^[a-z][a-z0-9+.-]*:/i.test(s), 'must be a path on this machine, not a URL or a DuckDB scheme such as s3:// or md:')
  .refine((s) => !SYSTEM_FOLDERS.some((f) => underFolder(path.resolve(s), f)), `must not be under ${SYSTEM_FOLDERS.join(', ')}`);

/**
 * A folder setting: a path that is no file. One that was (the export folder
 * given as a file's path) passed the start, and every nightly export then
 * failed making its folder there.
 */
const folderString = pathString.refine((s) => {
  try {
    return statSync(s).isDirectory();
  } catch {
    // Not there yet: the job makes it.
    return true;
  }
}, 'must be a folder, not a file');

/** A Kafka broker: host:port, the port from 1 to 65535. */
const brokerPattern = /^[^\s:/]+:(\d{1,5})$/;
const brokerList = z
  .string()
  .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
  .refine((list) => list.every((b) => { const port = Number(brokerPattern.exec(b)?.[1] ?? 0); return port >= 1 && port <= 65535; }), 'must be host:port entries separated by commas, each port from 1 to 65535');

const intString = (min: number, max: number) =>
  z.string().regex(/^\d+$/, 'must be a whole number').transform(Number).refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`);

const commaList = z.string().transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean));

const shardString = z
  .string()
  .regex(/^\d+\/\d+$/, 'must look like k/n, for example 0/2')
  .transform((s) => {
    const [index, count] = s.split('/').map(Number) as [number, number];
    return { index, count };
  })
  .refine((s) => s.count >= 1 && s.index < s.count, 'k must be below n');

const envSchema = z.object({
  AFFORD_DB: pathString
    .refine((s) => s !== ':memory:', 'must be a file: :memory: keeps nothing')
    .refine((s) => !s.endsWith('/') && !['.', '..'].includes(path.basename(s)), 'must name a file, not a folder'),
  AFFORD_DB_CHECKPOINT_THRESHOLD: sizeString('256MB or 1GB', 1e3, '1KB'),
  AFFORD_DB_CHECKPOINT_CHANGED_ROWS: intString(0, 1_000_000_000),
  AFFORD_DB_MEMORY_LIMIT: sizeString('512MB or 2GB', 16e6, '16MB'),
  AFFORD_V8_FLAGS: z
    .string()
    .regex(V8_FLAGS_PATTERN, 'must be V8 flags such as --heap-growing-percent=50, separated by spaces')
    // Checked against V8's own list (a process started once) only when it is not the default, which V8 has.
    .superRefine((value, ctx) => {
      const problem = value === V8_FLAGS_DEFAULT ? undefined : v8FlagsProblem(value);
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `must be V8 flags: ${problem}` });
    }),
  AFFORD_READ_CACHE_MB: intString(0, 65_536),
  AFFORD_HOST: z.string().refine((s) => s.trim() !== '' && !/\s/.test(s), 'must be a host name or an address, with no space'),
  AFFORD_PORT: intString(0, 65535),
  AFFORD_API_REQUEST_TIMEOUT_MS: intString(100, 3_600_000),
  AFFORD_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
  AFFORD_NIGHTLY_CRON: z.string().refine((s) => s.trim().split(/\s+/).length === 5 && cron.validate(s), 'must be a cron expression of five fields, such as 0 2 * * *'),
  AFFORD_INGEST_BATCH_ROWS: intString(1, 1_000_000),
  AFFORD_KAFKA_BROKERS: brokerList.optional(),
  AFFORD_KAFKA_TOPICS: commaList.refine((l) => l.length > 0, 'must name at least one topic'),
  AFFORD_KAFKA_GROUP_ID: z.string().min(1),
  AFFORD_KAFKA_CLIENT_ID: z.string().min(1),
  AFFORD_KAFKA_SSL: z.enum(['true', 'false']).transform((s) => s === 'true'),
  AFFORD_KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  AFFORD_KAFKA_SASL_USERNAME: z.string().optional(),
  AFFORD_KAFKA_SASL_PASSWORD: z.string().optional(),
  AFFORD_KAFKA_BATCH_BYTES: intString(1024, 256 * 1024 * 1024),
  AFFORD_KAFKA_BATCH_WAIT_MS: intString(0, 60_000),
  AFFORD_KAFKA_SESSION_TIMEOUT_MS: intString(3000, 600_000),
  AFFORD_SHARD: shardString,
  AFFORD_CLIENT_STATE_TOPIC: z.string().min(1).optional(),
  AFFORD_CLIENT_STATE_WAIT_MS: intString(1, 600_000),
  AFFORD_DB_READERS: intString(1, 1024),
  AFFORD_DB_THREADS: intString(1, 1024),
  AFFORD_JOBS_DB_MEMORY_LIMIT: sizeString('256MB or 1GB', 16e6, '16MB'),
  AFFORD_JOBS_DB_THREADS: intString(1, 1024),
  AFFORD_JOBS_SLICE_CUSTOMERS: intString(1, 100_000),
  AFFORD_JOBS_SLICE_TRANSACTIONS: intString(1, 100_000_000),
  AFFORD_EXPORT_DIR: folderString,
  AFFORD_REPORTS_DIR: folderString.optional(),
  AFFORD_TOKEN_SECRET: z.string().min(32, 'must be at least 32 characters').refine((s) => s.trim().length >= 32, 'must be at least 32 characters besides spaces').optional(),
  AFFORD_WEBHOOK_RETRY_BASE_MS: intString(1, 86_400_000),
  AFFORD_WEBHOOK_RETRY_CAP_MS: intString(1, 86_400_000),
  AFFORD_WEBHOOK_TIMEOUT_MS: intString(1, 600_000),
  AFFORD_REFRESH_TIMEOUT_MS: intString(1, 86_400_000),
}).superRefine((c, ctx) => {
  // The export replaces what is in its folder, and `afford sql` reads any file there: the live store must be elsewhere.
  // Compared where the paths lead: through a link, a store outside the folder as written could be inside it.
  const store = followed(c.AFFORD_DB);
  for (const [name, folder] of [['AFFORD_EXPORT_DIR', c.AFFORD_EXPORT_DIR], ['AFFORD_REPORTS_DIR', c.AFFORD_REPORTS_DIR]] as const) {
    if (folder !== undefined && underFolder(store, followed(folder))) {
      ctx.addIssue({ code: 'custom', path: ['AFFORD_DB'], message: `must not be inside ${name} (${folder}): the jobs replace what is there, and afford sql reads it` });
    }
  }
});

export type Config = z.infer<typeof envSchema>;

/** Reads the settings from an environment (process.env by default); throws CONFIG_INVALID naming each bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<string, string>> = {}): Config {
  const raw: Record<string, string | undefined> = {};
  for (const s of SETTINGS) {
    const value = overrides[s.name] ?? env[s.name];
    raw[s.name] = value === undefined || value === '' ? s.default : value;
  }
  const parsed = envSchema.safeParse(raw);
  const misspelt = misspeltSettings(env);
  if (!parsed.success || misspelt.length > 0) {
    const lines = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)), ...misspelt];
    throw affordError('CONFIG_INVALID', lines.join('\n  '));
  }
  return parsed.data;
}

/**
 * Variables named almost as a setting (at most two letters off): a typo,
 * such as AFFORD_DB_MEMORY_LIMT, was ignored, and the setting it meant
 * kept its default without a word. Names further from every setting are
 * someone else's (a receiver's AFFORD_WEBHOOK_SECRET) and left alone.
 */
function misspeltSettings(env: NodeJS.ProcessEnv): string[] {
  const names = SETTINGS.map((s) => s.name);
  return Object.keys(env)
    .filter((key) => key.startsWith('AFFORD_') && !names.includes(key))
    .flatMap((key) => {
      const near = closest(key, names);
      return near !== undefined && distance(key, near) <= 2 ? [`${key}: is no setting of afford's; did you mean ${near}?`] : [];
    });
}

export function settingsHelp(): string {
  const width = Math.max(...SETTINGS.map((s) => s.name.length));
  return SETTINGS.map((s) => `  ${s.name.padEnd(width)}  ${s.description}${s.default ? ` (default: ${s.default})` : ''}`).join('\n');
}

/** How the store opens, from the settings: what every process that writes the store passes to Store.open. */
export function storeOptions(
  config: Pick<Config, 'AFFORD_DB_MEMORY_LIMIT' | 'AFFORD_DB_CHECKPOINT_THRESHOLD' | 'AFFORD_DB_CHECKPOINT_CHANGED_ROWS' | 'AFFORD_DB_THREADS' | 'AFFORD_DB_READERS'>,
): { memoryLimit: string; checkpointThreshold: string; checkpointChangedRows: number; threads: number; readers: number } {
  return {
    memoryLimit: config.AFFORD_DB_MEMORY_LIMIT,
    checkpointThreshold: config.AFFORD_DB_CHECKPOINT_THRESHOLD,
    checkpointChangedRows: config.AFFORD_DB_CHECKPOINT_CHANGED_ROWS,
    threads: config.AFFORD_DB_THREADS,
    readers: config.AFFORD_DB_READERS,
  };
}
