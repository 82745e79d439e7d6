/** A text progress bar; cli-progress is not a dependency and this is all it would do here. */
export function renderProgress(done: number, total: number, width = 30): string {
  const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.floor(ratio * 100)}% ${done}/${total} customers`;
}

/**
 * A progress callback that redraws one line on standard error, or undefined
 * when standard error is not a terminal (a log file wants no carriage returns).
 * Redraws at most every `intervalMs`, since a redraw per customer would cost
 * more than generating the customer.
 */
export function stderrProgress(intervalMs = 100): ((done: number, total: number) => void) | undefined {
  const stderr = process.stderr;
  if (!stderr.isTTY) return undefined;
  let last = 0;
  return (done, total) => {
    const now = Date.now();
    if (done < total && now - last < intervalMs) return;
    last = now;
    const width = Math.max(10, Math.min(40, (stderr.columns || 80) - 40));
    stderr.write(`\r${renderProgress(done, total, width)}`);
    if (done >= total) stderr.write('\n');
  };
}
