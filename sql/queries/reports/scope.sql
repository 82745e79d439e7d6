-- The scope every report query reads, as temporary tables of this
-- connection, so that the figures, the coverage and the accounts all count
-- the same rows. Run inside the reports' read transaction, whose rollback
-- drops them.
--
-- report_subjects  the customers asked for that exist
-- report_ranges    the ranges, months as first days
-- report_figures   {figure, bucket_l1, direction}
-- report_totals    the subjects' monthly totals in a range, in $currency and
--                  the selected accounts, each with the range it falls in and,
--                  through core-dashboard, the figure and bucket L2 it counts
--                  towards (NULL for none). Declined transactions are already
--                  left out of monthly_category_totals.
--
-- $customers    JSON [{client_id, customer_id}]: one (the API, the CLI) or a chunk of all (the nightly job)
-- $ranges       JSON [{range_key, month_from, month_to}], months as first days
-- $account_ids  JSON array of account ids, or NULL for all of a customer's accounts
-- $currency     only transactions in this currency count
-- $criteria     JSON criterion rows of core-dashboard (category pair -> bucket pair)
-- $figures      JSON [{figure, bucket_l1, direction}]
CREATE OR REPLACE TEMP TABLE report_subjects AS
SELECT c.client_id, c.customer_id FROM customers c
SEMI JOIN (SELECT unnest(from_json($customers::JSON, '[{"client_id":"VARCHAR","customer_id":"VARCHAR"}]'), recursive := true)) k
  ON k.client_id = c.client_id AND k.customer_id = c.customer_id;

CREATE OR REPLACE TEMP TABLE report_ranges AS
SELECT unnest(from_json($ranges::JSON, '[{"range_key":"VARCHAR","month_from":"DATE","month_to":"DATE"}]'), recursive := true);

CREATE OR REPLACE TEMP TABLE report_figures AS
SELECT unnest(from_json($figures::JSON, '[{"figure":"VARCHAR","bucket_l1":"VARCHAR","direction":"VARCHAR"}]'), recursive := true);

CREATE OR REPLACE TEMP TABLE report_totals AS
WITH criteria AS (
    SELECT unnest(from_json($criteria::JSON,
        '[{"bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
-- The figure and bucket L2 each category pair counts towards in each direction.
counted AS (
    SELECT c.category_l1, c.category_l2, f.direction, f.figure, c.bucket_l2
    FROM criteria c JOIN report_figures f ON f.bucket_l1 = c.bucket_l1
)
SELECT t.client_id, t.customer_id, r.range_key, t.month, k.figure, k.bucket_l2, t.total, t.transaction_count
FROM monthly_category_totals t
JOIN report_subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
JOIN report_ranges r ON t.month BETWEEN r.month_from AND r.month_to
LEFT JOIN counted k ON k.category_l1 = t.category_l1 AND k.category_l2 = t.category_l2 AND k.direction = t.direction
WHERE t.currency = $currency
  AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id));
