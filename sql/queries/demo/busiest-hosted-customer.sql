-- A hosted customer with the most counted transactions in a month range: the
-- one whose totals the demo's example calls show.
SELECT c.customer_id, c.client_id
FROM customers c
JOIN monthly_category_totals m ON m.client_id = c.client_id AND m.customer_id = c.customer_id
WHERE c.hosted
  AND m.month BETWEEN $month_from::DATE AND $month_to::DATE
GROUP BY c.customer_id, c.client_id
ORDER BY sum(m.transaction_count) DESC, c.customer_id, c.client_id
LIMIT 1;
