-- A customer's monthly totals by currency, category pair and direction.
-- Parameters: $account_id, $client_id, $currency, $customer_id, $month_from, $month_to.
SELECT strftime(month, '%Y-%m') AS month,
       currency,
       category_l1,
       category_l2,
       direction,
       sum(total)::DECIMAL(38,2) AS total,
       sum(transaction_count)::INTEGER AS transaction_count
FROM monthly_category_totals
WHERE client_id = $client_id
  AND customer_id = $customer_id
  AND month BETWEEN $month_from::DATE AND $month_to::DATE
  AND ($currency::VARCHAR IS NULL OR currency = $currency::VARCHAR)
  AND ($account_id::VARCHAR IS NULL OR account_id = $account_id::VARCHAR)
GROUP BY month, currency, category_l1, category_l2, direction
ORDER BY currency, category_l1, category_l2, month, direction;
