-- How many staged applications were inserted and updated by apply-applications.sql, and how many were staged.
SELECT
    count(*) FILTER (WHERE NOT existed)::INTEGER AS inserted,
    count(*) FILTER (WHERE existed)::INTEGER AS updated,
    0 AS deleted,
    (SELECT count(*) FROM stage_applications)::INTEGER AS staged
FROM application_winners;
