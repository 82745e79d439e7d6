-- The monthly totals formula, defined once. monthly_totals_of(scope) computes,
-- from the transactions, the totals of the customer-months listed in the table
-- or view named by `scope` (columns client_id, customer_id, month): per
-- account, currency, category pair and direction, the sum and count of the
-- transactions that are not declined (the same set the transaction list
-- returns by default, so links reproduce each total).
-- Ingest re-materialises the months a batch touched with it; the view below,
-- which the nightly rebuild and the refresh task read, is the same formula
-- over every customer-month. The scope is joined before grouping, so a batch
-- reads only its own customers' rows.
-- Parameters: none (scope is the macro's argument, a table name).
CREATE MACRO monthly_totals_of(scope) AS TABLE
SELECT t.client_id, t.customer_id, t.account_id, t.month, t.currency, t.category_l1, t.category_l2,
       t.credit_debit_indicator AS direction,
       sum(t.amount)::DECIMAL(18,2) AS total,
       count(*)::INTEGER AS transaction_count
FROM transactions t
SEMI JOIN query_table(scope) s ON t.client_id = s.client_id AND t.customer_id = s.customer_id AND t.month = s.month
WHERE t.status <> 'declined'
GROUP BY ALL;

-- Every customer-month that holds a transaction.
CREATE VIEW customer_months AS SELECT DISTINCT client_id, customer_id, month FROM transactions;

DROP VIEW monthly_category_totals_computed;
CREATE VIEW monthly_category_totals_computed AS SELECT * FROM monthly_totals_of('customer_months');
