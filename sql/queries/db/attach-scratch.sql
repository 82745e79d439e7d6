-- The store's scratch database: in memory, seen by every connection of the
-- instance, never written to the DB file or its log. Work done beside the
-- writer leaves its results here for the writer to take (the ingest fast
-- path's parse, see fast-parse.sql). Lost, as it should be, when the
-- process ends. No parameters.
ATTACH IF NOT EXISTS ':memory:' AS afford_scratch;
