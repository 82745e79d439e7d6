-- The monthly totals formula over any set of transactions. Until now the one
-- formula was monthly_totals_of(scope), which reads the transactions of the
-- customer-months listed in `scope`, and the view of every customer's
-- totals passed it a view of every customer-month (a DISTINCT over the
-- whole table) to join against. That join bought nothing for the whole
-- table and cost memory: on a store of 4,000 customers (2.5 M
-- transactions) the nightly drift check needed more than 96MB of DuckDB's
-- memory and, now and then, more than the jobs' 128MB, and failed.
--
-- monthly_totals_in(rows) is now the formula, over the rows of the table,
-- view or CTE named `rows` (columns as in transactions): per customer,
-- account, month, currency, category pair and direction, the sum and count
-- of the transactions that are not declined (the same set the transaction
-- list returns by default, so links reproduce each total).
-- monthly_totals_of(scope), which ingest uses for the months a batch
-- touched, applies it to the transactions of the scope's customer-months,
-- joined before grouping as before; the view applies it to every
-- transaction. Parameters: none.
CREATE MACRO monthly_totals_in(rows) AS TABLE
SELECT t.client_id, t.customer_id, t.account_id, t.month, t.currency, t.category_l1, t.category_l2,
       t.credit_debit_indicator AS direction,
       sum(t.amount)::DECIMAL(18,2) AS total,
       count(*)::INTEGER AS transaction_count
FROM query_table(rows) t
WHERE t.status <> 'declined'
GROUP BY ALL;

DROP VIEW monthly_category_totals_computed;
DROP VIEW customer_months;
DROP MACRO TABLE monthly_totals_of;

CREATE MACRO monthly_totals_of(scope) AS TABLE
WITH scoped AS (
    SELECT t.* FROM transactions t
    SEMI JOIN query_table(scope) s ON t.client_id = s.client_id AND t.customer_id = s.customer_id AND t.month = s.month
)
SELECT * FROM monthly_totals_in('scoped');

CREATE VIEW monthly_category_totals_computed AS SELECT * FROM monthly_totals_in('transactions');
