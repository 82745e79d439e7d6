-- The transactions behind each customer's report in one range, as the
-- report's provenance: every transaction the report's figures could count
-- (not declined, in $currency and the selected accounts, in a month of the
-- range), with its identity and version, and the figure, bucket L2 and month
-- it counts towards (figure NULL for one in no figure, a transfer say), and
-- its amount. One JSON text per customer: an array of
--   [transaction_id, occurred_at (version), event_id (version), figure, bucket_l2, month, amount]
-- in transaction_id order, so the same store gives the same bytes.
-- Parameters: $refs_range (a range_key of scope.sql), $account_ids,
-- $currency, $criteria (as in scope.sql). Reads the tables of scope.sql,
-- which must run first in the same transaction.
WITH criteria AS (
    SELECT unnest(from_json($criteria::JSON,
        '[{"bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
range_months AS (
    SELECT month_from, month_to FROM report_ranges WHERE range_key = $refs_range
),
refs AS (
    SELECT t.client_id, t.customer_id, t.transaction_id,
           [t.transaction_id,
            strftime(t.occurred_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z',
            t.event_id,
            f.figure,
            CASE WHEN f.figure IS NOT NULL THEN c.bucket_l2 END,
            strftime(t.month, '%Y-%m'),
            t.amount::VARCHAR] AS ref
    FROM transactions t
    JOIN report_subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    JOIN range_months r ON t.month BETWEEN r.month_from AND r.month_to
    LEFT JOIN criteria c ON c.category_l1 = t.category_l1 AND c.category_l2 = t.category_l2
    LEFT JOIN report_figures f ON f.bucket_l1 = c.bucket_l1 AND f.direction = t.credit_debit_indicator
    WHERE t.status <> 'declined'
      AND t.currency = $currency
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
)
SELECT s.client_id, s.customer_id,
       coalesce(to_json(list(r.ref ORDER BY r.transaction_id) FILTER (WHERE r.ref IS NOT NULL)), '[]'::JSON)::VARCHAR AS refs
FROM report_subjects s
LEFT JOIN refs r ON r.client_id = s.client_id AND r.customer_id = s.customer_id
GROUP BY s.client_id, s.customer_id
ORDER BY s.client_id, s.customer_id;
