-- The instance's time zone: UTC, the zone every stored instant is in, so that
-- a column's default (current_timestamp) is one too. No parameters.
SET GLOBAL TimeZone = 'UTC';
