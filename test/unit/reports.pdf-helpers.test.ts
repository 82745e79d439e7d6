import { describe, expect, it } from 'vitest';
import { wantsPdf } from '../../src/api/routes/affordability.routes.js';
import { niceStep, shortMonth } from '../../src/reports/pdf-chart.js';
import { longMonth } from '../../src/reports/report-pdf.js';

describe('PDF helpers', () => {
  it('picks round chart steps', () => {
    expect(niceStep(2448.07)).toBe(1000);
    expect(niceStep(75.51)).toBe(20);
    expect(niceStep(0)).toBe(1);
    expect(niceStep(10)).toBe(5);
  });

  it('names months', () => {
    expect(shortMonth('2024-02')).toBe('Feb 24');
    expect(longMonth('2023-12')).toBe('December 2023');
  });
});

describe('wantsPdf', () => {
  it('follows ?format first, then the Accept header', () => {
    expect(wantsPdf('pdf', 'application/json')).toBe(true);
    expect(wantsPdf('json', 'application/pdf')).toBe(false);
    expect(wantsPdf(undefined, undefined)).toBe(false);
    expect(wantsPdf(undefined, 'application/pdf')).toBe(true);
    expect(wantsPdf(undefined, 'application/json, application/pdf')).toBe(false);
    expect(wantsPdf(undefined, 'application/json;q=0.4, application/pdf;q=0.9')).toBe(true);
    expect(wantsPdf(undefined, '*/*')).toBe(false);
    expect(wantsPdf(undefined, 'application/*;q=0.2, application/pdf')).toBe(true);
    expect(wantsPdf(undefined, 'application/pdf;q=0')).toBe(false);
  });
});
