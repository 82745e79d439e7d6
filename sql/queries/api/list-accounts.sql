-- A customer's accounts; each filter is a list of values an account may
-- have (any of them), and applies only when its parameter is not NULL.
-- Parameters: $account_types, $client_id, $currencies, $customer_id, $holder_relationship_types, $providers, $usage_types.
SELECT account_id, currency, holder_name, holder_relationship, account_name, account_type, usage_type,
       provider, uk_account_number, uk_sort_code
FROM accounts
WHERE client_id = $client_id
  AND customer_id = $customer_id
  AND ($currencies::VARCHAR[] IS NULL OR list_contains($currencies::VARCHAR[], currency))
  AND ($providers::VARCHAR[] IS NULL OR list_contains($providers::VARCHAR[], provider))
  AND ($account_types::VARCHAR[] IS NULL OR list_contains($account_types::VARCHAR[], account_type))
  AND ($usage_types::VARCHAR[] IS NULL OR list_contains($usage_types::VARCHAR[], usage_type))
  AND ($holder_relationship_types::VARCHAR[] IS NULL OR list_contains($holder_relationship_types::VARCHAR[], holder_relationship))
ORDER BY account_id;
