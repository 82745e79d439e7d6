-- One page of a customer's transactions, newest first, after the keyset
-- position ($after_date_time, $after_transaction_id) of the previous page.
-- Every filter is optional: a NULL parameter leaves it off. The bucket
-- filters keep the transactions whose category pair the definition maps
-- onto that bucket, which is how the totals links reproduce each total.
-- $merchant matches the merchant's display name or slug, case aside;
-- $statuses is a list (NULL: every status but declined).
-- Parameters: $account_ids, $after_date_time, $after_transaction_id, $bucket_id, $bucket_l1, $bucket_l2, $category_l1, $category_l2, $client_id, $credit_debit_indicator, $currency, $customer_id, $date_from, $date_to_exclusive, $exclude_tags, $include_tags, $limit, $merchant, $statuses, $transaction_ids (the members of the insight keys asked for, classified just before in the same snapshot), $updated_after.
SELECT t.transaction_id,
       t.account_id,
       t.provider,
       t.description,
       t.credit_debit_indicator,
       t.amount::VARCHAR AS amount,
       t.currency,
       t.date_time::VARCHAR AS date_time,
       t.status,
       t.category_l1,
       t.category_l1_confidence,
       t.category_l2,
       t.category_l2_confidence,
       t.regularity::VARCHAR AS regularity,
       t.merchant::VARCHAR AS merchant,
       t.tags,
       t.posted_date_time::VARCHAR AS posted_date_time,
       t.value_date_time::VARCHAR AS value_date_time,
       t.merchant_category_code,
       t.counterparty_name,
       t.counterparty_identifier,
       t.running_balance::VARCHAR AS running_balance,
       t.running_balance_currency
FROM transactions t
WHERE t.client_id = $client_id
  AND t.customer_id = $customer_id
  AND ($date_from::TIMESTAMP IS NULL OR t.date_time >= $date_from::TIMESTAMP)
  AND ($date_to_exclusive::TIMESTAMP IS NULL OR t.date_time < $date_to_exclusive::TIMESTAMP)
  AND ($account_ids::VARCHAR[] IS NULL OR list_contains($account_ids::VARCHAR[], t.account_id))
  AND ($category_l1::VARCHAR IS NULL OR t.category_l1 = $category_l1::VARCHAR)
  AND ($category_l2::VARCHAR IS NULL OR t.category_l2 = $category_l2::VARCHAR)
  AND ($credit_debit_indicator::VARCHAR IS NULL OR t.credit_debit_indicator = $credit_debit_indicator::VARCHAR)
  AND ($currency::VARCHAR IS NULL OR t.currency = $currency::VARCHAR)
  AND (CASE WHEN $statuses::VARCHAR[] IS NULL THEN t.status <> 'declined' ELSE list_contains($statuses::VARCHAR[], t.status) END)
  AND ($merchant::VARCHAR IS NULL
       OR lower(json_extract_string(t.merchant, '$.display_name')) = lower($merchant::VARCHAR)
       OR lower(json_extract_string(t.merchant, '$.slug')) = lower($merchant::VARCHAR))
  AND ($include_tags::VARCHAR[] IS NULL OR list_has_any(t.tags, $include_tags::VARCHAR[]))
  AND ($exclude_tags::VARCHAR[] IS NULL OR NOT list_has_any(t.tags, $exclude_tags::VARCHAR[]))
  AND ($transaction_ids::VARCHAR[] IS NULL OR list_contains($transaction_ids::VARCHAR[], t.transaction_id))
  AND ($updated_after::TIMESTAMP IS NULL OR t.updated_at > $updated_after::TIMESTAMP)
  AND ($bucket_id::VARCHAR IS NULL OR EXISTS (
        SELECT 1 FROM bucket_criteria c
        WHERE c.bucket_id = $bucket_id::VARCHAR
          AND c.category_l1 = t.category_l1
          AND c.category_l2 = t.category_l2
          AND ($bucket_l1::VARCHAR IS NULL OR c.bucket_l1 = $bucket_l1::VARCHAR)
          AND ($bucket_l2::VARCHAR IS NULL OR c.bucket_l2 = $bucket_l2::VARCHAR)))
  AND ($after_date_time::TIMESTAMP IS NULL
       OR t.date_time < $after_date_time::TIMESTAMP
       OR (t.date_time = $after_date_time::TIMESTAMP AND t.transaction_id < $after_transaction_id::VARCHAR))
ORDER BY t.date_time DESC, t.transaction_id DESC
LIMIT $limit;
