-- Folds the snapshot's WAL into its file, then lets go of it.
CHECKPOINT afford_snapshot;

DETACH afford_snapshot;
