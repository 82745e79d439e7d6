-- Recomputes every customer-month the staged transaction winners touch (the
-- month a replaced row was in, the month a winning upsert is in), from the
-- transactions, with the one monthly totals formula (monthly_totals_of,
-- migration 007). Runs after the rows are replaced. No parameters.
INSERT INTO batch_months
SELECT DISTINCT client_id, customer_id, month FROM (
    SELECT client_id, customer_id, old_month AS month FROM tx_events WHERE winner AND existed
    UNION ALL
    SELECT s.client_id, s.customer_id, date_trunc('month', s.date_time::TIMESTAMP)::DATE
    FROM stage_transactions s SEMI JOIN (SELECT seq FROM tx_events WHERE winner AND op = 'upsert') w ON w.seq = s.seq
);

DELETE FROM monthly_category_totals m USING batch_months a
WHERE m.client_id = a.client_id AND m.customer_id = a.customer_id AND m.month = a.month;

INSERT INTO monthly_category_totals SELECT * FROM monthly_totals_of('batch_months');
