-- Stages a batch's fast rows (fast_rows, appended by fast-path.ts; see
-- src/ingest/fast-rows.ts): each text holds one or more rows separated by
-- chr(29), each row one of stage_transactions, its cells separated by
-- chr(31), a null written as chr(30). The positions,
-- ids and instants of the first seven cells are never null. A text with a
-- span (shift, from_seq, to_seq) gives only its rows whose first cell is
-- from from_seq to before to_seq, each at that cell plus shift; one
-- without gives every row at its first cell. No parameters.
INSERT INTO stage_transactions
SELECT pos + coalesce(shift, 0), f[2], f[3], f[4], f[5], f[6], f[7],
       nullif(f[8], chr(30)), nullif(f[9], chr(30)), nullif(f[10], chr(30)), nullif(f[11], chr(30)), nullif(f[12], chr(30)),
       nullif(f[13], chr(30)), nullif(f[14], chr(30)), nullif(f[15], chr(30)), nullif(f[16], chr(30)), nullif(f[17], chr(30)),
       nullif(f[18], chr(30)), nullif(f[19], chr(30)), nullif(f[20], chr(30)), nullif(f[21], chr(30)), nullif(f[22], chr(30)),
       nullif(f[23], chr(30)), nullif(f[24], chr(30)), nullif(f[25], chr(30)), nullif(f[26], chr(30)), nullif(f[27], chr(30)),
       nullif(f[28], chr(30)), nullif(f[29], chr(30)), nullif(f[30], chr(30)), true
FROM (
  SELECT f, f[1]::INTEGER AS pos, shift, from_seq, to_seq
  FROM (SELECT string_split(r, chr(31)) AS f, shift, from_seq, to_seq
        FROM (SELECT unnest(string_split(row, chr(29))) AS r, shift, from_seq, to_seq FROM fast_rows))
)
WHERE from_seq IS NULL OR (pos >= from_seq AND pos < to_seq);

DROP TABLE fast_rows;
