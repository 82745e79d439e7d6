-- A customer's monthly totals for the category pairs that a definition maps,
-- by bucket pair, month and direction. Read from monthly_category_totals
-- (declined transactions are not in it), never from raw transactions.
-- Parameters: $bucket_id, $client_id, $currency, $customer_id, $month_from, $month_to.
SELECT c.bucket_l1,
       c.bucket_l2,
       strftime(m.month, '%Y-%m') AS month,
       m.direction,
       sum(m.total)::DECIMAL(38,2) AS total,
       sum(m.transaction_count)::INTEGER AS transaction_count
FROM monthly_category_totals m
JOIN bucket_criteria c
  ON c.category_l1 = m.category_l1 AND c.category_l2 = m.category_l2
WHERE c.bucket_id = $bucket_id
  AND m.client_id = $client_id
  AND m.customer_id = $customer_id
  AND m.currency = $currency
  AND m.month BETWEEN $month_from::DATE AND $month_to::DATE
GROUP BY c.bucket_l1, c.bucket_l2, m.month, m.direction
ORDER BY c.bucket_l1, c.bucket_l2, month, m.direction;
