import { execFileSync } from 'node:child_process';

/** Runs a poppler tool. A missing tool fails the test: these checks must never be skipped. */
export function poppler(tool: string, args: string[]): string {
  try {
    return execFileSync(tool, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${tool} is not installed: run test/install-tools.sh (Debian package poppler-utils)`, { cause: err });
    }
    throw err;
  }
}

/**
 * A GBP amount as the PDF should print it, written independently of the
 * renderer: '-1234.5' -> '-£1,234.50'.
 */
export function gbp(value: string): string {
  const negative = value.startsWith('-') && Number(value) !== 0;
  const [whole = '0', pence = ''] = value.replace(/^-/, '').split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${negative ? '-' : ''}£${grouped}.${pence.padEnd(2, '0').slice(0, 2)}`;
}
