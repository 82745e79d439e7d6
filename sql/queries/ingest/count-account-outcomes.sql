-- How many staged accounts were inserted and updated by apply-accounts.sql, and how many were staged.
SELECT
    count(*) FILTER (WHERE NOT existed)::INTEGER AS inserted,
    count(*) FILTER (WHERE existed)::INTEGER AS updated,
    0 AS deleted,
    (SELECT count(*) FROM stage_accounts)::INTEGER AS staged
FROM account_winners;
