-- Fills an empty afford store (migrated, real schema) with synthetic
-- customers, accounts and transactions for the read bench, entirely in SQL:
-- $customers customers of the client $client_id (hosted, ids cust-000001 ...),
-- two GBP accounts each, and $per_month transactions per customer in each of
-- the 12 months of 2025 (so 10 M transactions are 16,026 customers at 52 a
-- month). Amounts are DECIMAL(18,2) from 1.00 to 999.99, a salary credit
-- each month, the rest debits over core-dashboard's buckets, 1 in 50
-- declined. Deterministic: hash() of the row's position picks every value.
-- monthly_category_totals is left empty: the bench fills it with the real
-- rebuild job. Parameters: $client_id, $customers, $per_month.
INSERT INTO customers (client_id, customer_id, hosted, secret_hash)
SELECT $client_id, printf('cust-%06d', c), true, NULL
FROM range(1, $customers + 1) r(c);

INSERT INTO accounts (client_id, customer_id, account_id, currency, holder_name, holder_relationship, account_name,
                      account_type, usage_type, provider, uk_account_number, uk_sort_code, occurred_at, event_id)
SELECT $client_id, printf('cust-%06d', c), printf('acc-%06d-%d', c, a), 'GBP', printf('Holder %d', c), 'account_holder',
       CASE a WHEN 1 THEN 'Current account' ELSE 'Credit card' END,
       CASE a WHEN 1 THEN 'current' ELSE 'credit_card' END, 'personal', 'Monzo',
       printf('%08d', c), '04-00-04', TIMESTAMP '2025-01-01 00:00:00', printf('bench-acc-%d-%d', c, a)
FROM range(1, $customers + 1) r(c), range(1, 3) s(a);

INSERT INTO transactions (client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator,
                          amount, currency, date_time, month, status, category_l1, category_l1_confidence, category_l2,
                          category_l2_confidence, regularity, merchant, tags, posted_date_time, value_date_time,
                          merchant_category_code, counterparty_name, counterparty_identifier, running_balance,
                          running_balance_currency, occurred_at, event_id)
WITH pairs(i, l1, l2, dir) AS (
  VALUES (0, 'income', 'salary', 'credit'), (1, 'food_and_drink', 'groceries', 'debit'), (2, 'mortgage_and_rent', 'rent', 'debit'),
         (3, 'utilities', 'utilities_energy', 'debit'), (4, 'transport', 'public_transport', 'debit'), (5, 'transport', 'fuel', 'debit'),
         (6, 'food_and_drink', 'eating_out_and_takeaways', 'debit'), (7, 'food_and_drink', 'coffee', 'debit'),
         (8, 'shopping', 'clothing', 'debit'), (9, 'entertainment', 'media_subscriptions', 'debit'), (10, 'home', 'pets', 'debit'),
         (11, 'banking', 'cash_withdrawals', 'debit'), (12, 'transfers', 'transfers_in', 'credit'), (13, 'utilities', 'phone_and_broadband', 'debit'),
         (14, 'health_and_fitness', 'pharmacy', 'debit'), (15, 'travel', 'holiday_and_travel_expenses', 'debit')
),
rows AS (
  SELECT c, m, k, hash(c, m, k) AS h,
         CASE WHEN k = 0 THEN 0 ELSE 1 + hash(c, m, k, 1) % 15 END AS pair
  FROM range(1, $customers + 1) r(c), range(0, 12) mm(m), range(0, $per_month) kk(k)
)
SELECT $client_id,
       printf('cust-%06d', c),
       printf('tx-%02d-%04d', m, k),
       printf('acc-%06d-%d', c, CASE WHEN k % 5 = 4 THEN 2 ELSE 1 END),
       'Monzo',
       upper(p.l2) || ' ' || (h % 1000)::VARCHAR,
       p.dir,
       CASE WHEN k = 0 THEN 1500 + (h % 200000) / 100 ELSE 1 + (h % 99900) / 100 END::DECIMAL(18,2),
       'GBP',
       TIMESTAMP '2025-01-01 00:00:00' + to_months(m) + to_seconds((h % (28 * 86400))::BIGINT),
       DATE '2025-01-01' + to_months(m),
       CASE WHEN h % 50 = 7 THEN 'declined' WHEN h % 10 = 3 THEN 'pending' ELSE 'booked' END,
       p.l1, '0.90', p.l2, '0.85',
       NULL, NULL, CASE WHEN h % 4 = 0 THEN ['online'] ELSE [] END::VARCHAR[],
       NULL, NULL, NULL, NULL, NULL, NULL, NULL,
       TIMESTAMP '2025-12-31 00:00:00',
       printf('bench-%d-%d-%d', c, m, k)
FROM rows JOIN pairs p ON p.i = rows.pair;
