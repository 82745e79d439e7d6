-- Income streams and commitments: the transactions of one stream:<source>:<norm>
-- or commitment:<kind>:<norm> key in one range, with how regular they are.
-- The frequency is the first band (weekly, fortnightly, four-weekly, monthly,
-- in $bands order) that holds at least $min_share of the gaps in days between
-- consecutive transactions, given at least $min_occurrences of them; else
-- irregular (and monthly before four-weekly when there is one a month, see
-- chosen). The next expected date is the last date plus the band's interval
-- (a calendar month for monthly). Amounts come sorted, for the median.
-- Reads the tables of queries/insights/scope, which must run first in the same transaction.
-- $bands            JSON [{frequency, min_days, max_days, interval_days, per_year, priority}]
-- $min_share        share of gaps that must fall in a band, e.g. 0.75
-- $min_occurrences  fewest transactions a regular stream has
-- $commitment_min_occurrences  fewest a regular commitment has: fewer, so that one that began late in the range
--                   (a new loan, a new tenancy) is not averaged over months it did not exist in; with fewer than
--                   $min_occurrences, monthly only
WITH bands AS (
    SELECT unnest(from_json($bands::JSON,
        '[{"frequency":"VARCHAR","min_days":"INTEGER","max_days":"INTEGER","interval_days":"INTEGER","per_year":"INTEGER","priority":"INTEGER"}]'), recursive := true)
),
keyed AS (
    SELECT client_id, customer_id, range_key, key, transaction_id, date_time, day, month, amount, description
    FROM (
        SELECT tx.*, r.range_key, unnest(tx.keys) AS key
        FROM insight_tx tx JOIN insight_ranges r ON tx.month BETWEEN r.month_from AND r.month_to
    )
    WHERE key LIKE 'stream:%' OR key LIKE 'commitment:%'
),
ordered AS (
    SELECT *, date_diff('day', lag(day) OVER (PARTITION BY client_id, customer_id, range_key, key ORDER BY date_time, transaction_id), day) AS gap
    FROM keyed
),
names AS (
    SELECT client_id, customer_id, range_key, key, arg_max(description, n) AS name
    FROM (SELECT client_id, customer_id, range_key, key, description, count(*) * 1000000 - rank() OVER (PARTITION BY client_id, customer_id, range_key, key ORDER BY description) AS n
          FROM keyed GROUP BY client_id, customer_id, range_key, key, description)
    GROUP BY ALL
),
groups AS (
    SELECT client_id, customer_id, range_key, key,
           count(*) AS occurrences,
           coalesce(list(gap) FILTER (WHERE gap IS NOT NULL), []) AS gaps,
           max(day) AS last_day,
           list(DISTINCT strftime(month, '%Y-%m') ORDER BY strftime(month, '%Y-%m')) AS months_present,
           list(amount::VARCHAR ORDER BY amount) AS amounts,
           count(*) = count(DISTINCT month) AS one_a_month
    FROM ordered
    GROUP BY ALL
),
banded AS (
    SELECT g.client_id, g.customer_id, g.range_key, g.key, b.frequency, b.interval_days, b.priority
    FROM groups g CROSS JOIN bands b
    WHERE (g.occurrences >= $min_occurrences
           -- A commitment of fewer payments, down to $commitment_min_occurrences (one that began late in the range):
           -- monthly only, as two payments a week apart are not yet weekly.
           OR (starts_with(g.key, 'commitment:') AND g.occurrences >= $commitment_min_occurrences AND b.frequency = 'monthly'))
      AND len(list_filter(g.gaps, x -> x BETWEEN b.min_days AND b.max_days)) >= $min_share::DECIMAL(5,4) * len(g.gaps)
),
-- A group paid once in every calendar month it spans, whose gaps pass as
-- monthly, is monthly even when they pass as four-weekly too: pay on the
-- last Friday of the month gives gaps of 28 days with a 35 now and then, and
-- taken as four-weekly it predicted 13 payments a year where there are 12.
-- Four-weekly pay shows itself by a month that holds two payments.
chosen AS (
    SELECT b.client_id, b.customer_id, b.range_key, b.key,
           CASE WHEN any_value(g.one_a_month) AND bool_or(b.frequency = 'monthly') THEN 'monthly' ELSE arg_min(b.frequency, b.priority) END AS frequency,
           CASE WHEN any_value(g.one_a_month) AND bool_or(b.frequency = 'monthly') THEN 0 ELSE arg_min(b.interval_days, b.priority) END AS interval_days
    FROM banded b
    JOIN groups g ON g.client_id = b.client_id AND g.customer_id = b.customer_id AND g.range_key = b.range_key AND g.key = b.key
    GROUP BY b.client_id, b.customer_id, b.range_key, b.key
),
result AS (
    SELECT g.client_id, g.customer_id, g.range_key, g.key, n.name,
           coalesce(c.frequency, 'irregular') AS frequency,
           g.months_present, g.amounts,
           strftime(g.last_day, '%Y-%m-%d') AS last_date,
           CASE WHEN c.frequency IS NULL THEN NULL
                WHEN c.interval_days = 0 THEN strftime((g.last_day + INTERVAL 1 MONTH)::DATE, '%Y-%m-%d')
                ELSE strftime(g.last_day + c.interval_days::INTEGER, '%Y-%m-%d') END AS next_expected_date
    FROM groups g
    JOIN names n ON n.client_id = g.client_id AND n.customer_id = g.customer_id AND n.range_key = g.range_key AND n.key = g.key
    LEFT JOIN chosen c ON c.client_id = g.client_id AND c.customer_id = g.customer_id AND c.range_key = g.range_key AND c.key = g.key
)
SELECT to_json(list(r ORDER BY r.client_id, r.customer_id, r.range_key, r.key))::VARCHAR AS rows
FROM result r;
