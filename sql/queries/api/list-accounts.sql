-- A customer's accounts; each filter applies only when its parameter is not NULL.
-- Parameters: $account_type, $client_id, $currency, $customer_id, $holder_relationship_type, $provider, $usage_type.
SELECT account_id, currency, holder_name, holder_relationship, account_name, account_type, usage_type,
       provider, uk_account_number, uk_sort_code
FROM accounts
WHERE client_id = $client_id
  AND customer_id = $customer_id
  AND ($currency::VARCHAR IS NULL OR currency = $currency::VARCHAR)
  AND ($provider::VARCHAR IS NULL OR provider = $provider::VARCHAR)
  AND ($account_type::VARCHAR IS NULL OR account_type = $account_type::VARCHAR)
  AND ($usage_type::VARCHAR IS NULL OR usage_type = $usage_type::VARCHAR)
  AND ($holder_relationship_type::VARCHAR IS NULL OR holder_relationship = $holder_relationship_type::VARCHAR)
ORDER BY account_id;
