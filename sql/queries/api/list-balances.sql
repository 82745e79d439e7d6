-- Every balance of a customer's accounts, in account and position order; amounts
-- as DECIMAL text, never a float.
-- Parameters: $client_id, $customer_id.
SELECT account_id, position, date::VARCHAR AS date, amount::VARCHAR AS amount, currency, type, credit_debit_indicator
FROM balances
WHERE client_id = $client_id AND customer_id = $customer_id
ORDER BY account_id, position;
