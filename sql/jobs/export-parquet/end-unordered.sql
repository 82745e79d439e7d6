-- Back to the instance's setting, before the reader connection is reused.
RESET SESSION preserve_insertion_order;
