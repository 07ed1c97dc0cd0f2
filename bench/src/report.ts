import type { LoadResult } from './load.ts';

export interface Comparison {
  title: string;
  subject: { label: string; result: LoadResult };
  baseline: { label: string; result: LoadResult | { requestsPerSecond: number } };
  /** None for a reference figure (the hello world: a request without the database sets no bar). */
  goal?: number;
}

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

const pad = (text: string, width: number, right = false) => (right ? text.padStart(width) : text.padEnd(width));

export const ratioOf = (comparison: Comparison): number =>
  comparison.baseline.result.requestsPerSecond > 0
    ? comparison.subject.result.requestsPerSecond / comparison.baseline.result.requestsPerSecond
    : 0;

export const verdict = (ratio: number, goal: number): string => (ratio >= goal ? 'ABOVE GOAL' : 'BELOW GOAL');

/** A plain-text table: one row per measured thing, then the ratio against its goal. */
export function formatComparison(comparison: Comparison): string {
  const rows: string[][] = [['', 'req/s', 'p99 ms', 'failed']];
  for (const side of [comparison.subject, comparison.baseline]) {
    const result = side.result;
    const p99 = 'p99Ms' in result ? number(result.p99Ms) : '-';
    const failed = 'failures' in result ? number(result.failures) : '-';
    rows.push([side.label, number(result.requestsPerSecond, 1), p99, failed]);
  }
  const ratio = ratioOf(comparison);
  const goal = comparison.goal;
  rows.push([
    'ratio',
    number(ratio, 2),
    ...(goal === undefined ? ['for reference', ''] : [`goal >= ${number(goal, 2)}`, verdict(ratio, goal)]),
  ]);

  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => (row[column] ?? '').length)));
  const line = (row: string[]) => row.map((cell, column) => pad(cell, widths[column] ?? 0, column > 0)).join('   ');
  const rule = '-'.repeat(line(rows[0] ?? []).length);
  return [comparison.title, rule, ...rows.slice(0, -1).map(line), rule, line(rows[rows.length - 1] ?? [])].join('\n');
}
