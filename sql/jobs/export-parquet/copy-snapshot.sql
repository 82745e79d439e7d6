-- The tables a data team gets, and nothing else: an allow-list, so a table
-- added later stays in the live file until someone adds it here. Never
-- copied: api_clients, api_signing_keys, webhook_signing_keys and
-- webhook_subscriptions (credentials, keys, webhook secrets and header
-- values), the webhook outbox and attempts, tasks and ingest bookkeeping;
-- nor customers.secret_hash. A dead letter's raw text is redacted again,
-- for rows stored before ingest redacted them.
CREATE TABLE afford_snapshot.customers AS SELECT * EXCLUDE (secret_hash) FROM customers;

CREATE TABLE afford_snapshot.accounts AS SELECT * FROM accounts;

CREATE TABLE afford_snapshot.balances AS SELECT * FROM balances;

CREATE TABLE afford_snapshot.transactions AS SELECT * FROM transactions;

CREATE TABLE afford_snapshot.tombstones AS SELECT * FROM tombstones;

CREATE TABLE afford_snapshot.customer_applications AS SELECT * FROM customer_applications;

CREATE TABLE afford_snapshot.monthly_category_totals AS SELECT * FROM monthly_category_totals;

CREATE TABLE afford_snapshot.affordability_reports AS SELECT * FROM affordability_reports;

CREATE TABLE afford_snapshot.bucket_definitions AS SELECT * FROM bucket_definitions;

CREATE TABLE afford_snapshot.bucket_criteria AS SELECT * FROM bucket_criteria;

CREATE TABLE afford_snapshot.job_runs AS SELECT * FROM job_runs;

CREATE TABLE afford_snapshot.dead_letters AS
SELECT * REPLACE (
    regexp_replace(raw, '"([^"\\]*[_-])?(secret|password|passwd|token|api[_-]?key|apikey|authorization)"(\s*):(\s*)"(?:[^"\\]|\\.)*"?',
                   '"\1\2"\3:\4"[redacted]"', 'gi') AS raw
)
FROM dead_letters;
