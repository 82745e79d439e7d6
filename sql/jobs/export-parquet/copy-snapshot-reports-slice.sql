-- One slice of customers' affordability reports and their insights into the
-- snapshot (see snapshot-report-slices.sql).
-- Parameters: $first_customer, $last_customer.
INSERT INTO afford_snapshot.affordability_report_parts
SELECT * FROM affordability_report_parts WHERE customer_id BETWEEN $first_customer AND $last_customer;

INSERT INTO afford_snapshot.affordability_insights
SELECT * FROM affordability_insights WHERE customer_id BETWEEN $first_customer AND $last_customer;
