-- Lets go of the store's database (see attach-store.sql), on a connection
-- of its own whose default is the instance's in-memory database: a
-- connection cannot detach its own default. Run before attaching the file
-- again once DuckDB has invalidated it; if an earlier try already let go of
-- it, there is nothing to detach.
DETACH DATABASE IF EXISTS afford;
