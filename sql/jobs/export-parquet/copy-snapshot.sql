-- The tables a data team gets, and nothing else: an allow-list, so a table
-- added later stays in the live file until someone adds it here. Never
-- copied: api_clients, api_signing_keys, webhook_signing_keys and
-- webhook_subscriptions (credentials, keys, webhook secrets and header
-- values), the webhook outbox and attempts, tasks and ingest bookkeeping;
-- nor customers.secret_hash, nor transactions.key_hash (the store's own
-- index, see migration 018). A dead letter's raw text is redacted again,
-- for rows stored before ingest redacted them.
CREATE TABLE afford_snapshot.customers AS SELECT * EXCLUDE (secret_hash) FROM customers;

CREATE TABLE afford_snapshot.accounts AS SELECT * FROM accounts;

CREATE TABLE afford_snapshot.balances AS SELECT * FROM balances;

CREATE TABLE afford_snapshot.transactions AS SELECT * EXCLUDE (key_hash) FROM transactions;

CREATE TABLE afford_snapshot.tombstones AS SELECT * FROM tombstones;

CREATE TABLE afford_snapshot.customer_applications AS SELECT * FROM customer_applications;

CREATE TABLE afford_snapshot.monthly_category_totals AS SELECT * FROM monthly_category_totals;

-- Reports and insights are created empty here and filled a slice of
-- customers at a time (copy-snapshot-reports-slice.sql). Reports are kept
-- as in the store, in parts under 4 KB, and affordability_reports is the
-- same view that joins them (sql/migrations/013_report_parts.sql): a view
-- reads the tables of its own database, so the snapshot's reads the
-- snapshot's parts. Whole reports as strings of 50 KB made the snapshot's
-- checkpoints need memory that grew with the number of reports.
CREATE TABLE afford_snapshot.affordability_report_parts AS SELECT * FROM affordability_report_parts WITH NO DATA;

CREATE VIEW afford_snapshot.affordability_reports AS
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       string_agg(text, '' ORDER BY part)::JSON AS report
FROM affordability_report_parts
GROUP BY customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version;

CREATE TABLE afford_snapshot.affordability_insights AS SELECT * FROM affordability_insights WITH NO DATA;

CREATE TABLE afford_snapshot.bucket_definitions AS SELECT * FROM bucket_definitions;

CREATE TABLE afford_snapshot.bucket_criteria AS SELECT * FROM bucket_criteria;

-- A run's detail names the customers it failed for, who may have been
-- deleted since (a deletion takes everything that names a customer from the
-- data, not from the record of past runs): the snapshot keeps the runs
-- without it.
CREATE TABLE afford_snapshot.job_runs AS SELECT * EXCLUDE (detail) FROM job_runs;

-- The same rule as src/domain/redact.ts: a value under a key named like a
-- credential; and a reason that quotes a piece of such a line loses the quote.
-- Text that still names a credential the pattern cannot take (in single
-- quotes, without a colon, an array or object for its value, its quotes
-- escaped as JSON kept in a string is, a compound key such as
-- customer_secret followed by a value after a space) is not kept at all, nor
-- is text with a key written with a \u escape, since where the value ends
-- cannot be known for sure. Stricter than ingest, which reads valid JSON
-- whole (DuckDB's own JSON reader takes a trailing comma, so it cannot tell
-- the same lines apart): a row stored by ingest keeps its redacted pairs,
-- which this leaves alone, and loses its text here only if a value reads like
-- a credential's key (`token:` in a description, say).
CREATE TABLE afford_snapshot.dead_letters AS
WITH credential AS (
    SELECT '"([^"\\]*[_\s-]|[^"\\]*[a-z0-9])?(secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|credentials?|cookie|authorization)"(\s*):(\s*)(?:"(?:[^"\\]|\\.)*"?|[^\s,}\]{\["][^\s,}\]]*)' AS pattern,
           '(^|[^A-Za-z0-9])([A-Za-z0-9_-]*[_\s-])?(secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|credentials?|cookie|authorization)["''\\]*\s*[:"''=\[{]|[A-Za-z0-9][_-](secret|password|passwd|passphrase|token|api[_-]?key|apikey|private[_-]?key|privatekey|credentials?|cookie|authorization)\s+[^\s]|[a-z0-9](secret|password|passwd|passphrase|token|apikey|privatekey|credentials?|cookie|authorization)\s*[:"''=\[{\\]' AS loose,
           '"(?:[^"\\]|\\.)*"\s*:\s*"\[redacted\]"' AS redacted_pair
), redacted AS (
    SELECT d.*, regexp_replace(d.raw, c.pattern, '"\1\2"\3:\4"[redacted]"', 'gi') AS kept_raw, regexp_matches(d.raw, c.pattern, 'i') AS had_credential,
           regexp_matches(regexp_replace(kept_raw, c.redacted_pair, '', 'g'), c.loose, 'i')
               OR regexp_matches(d.raw, '"(?:[^"\\]|\\.)*\\u[0-9a-fA-F]{4}(?:[^"\\]|\\.)*"\s*:') AS withheld
    FROM dead_letters d, credential c
)
SELECT * EXCLUDE (kept_raw, had_credential, withheld) REPLACE (
    CASE WHEN withheld THEN '[redacted]' ELSE kept_raw END AS raw,
    CASE WHEN had_credential OR withheld
         THEN regexp_replace(reason, ', (?:\.\.\.)?"[\s\S]*?"(?:\.\.\.)? is not valid JSON', ' is not valid JSON', 'g')
         ELSE reason END AS reason
)
FROM redacted;
