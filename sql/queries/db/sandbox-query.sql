-- What a data team's query may reach (afford sql): files in the export
-- folder only ($export_dir, the snapshot's and the Parquet files' own), no
-- other file, no database attached, no extension installed or loaded, and
-- no setting changed from then on (the memory limit included).
SET allowed_directories = [$export_dir];
SET enable_external_access = false;
SET lock_configuration = true;
