/**
 * `--junit FILE`: the checks of one `expect` or `compare` as a JUnit XML report (one test suite,
 * one test case per check), the format CI systems show as test results. A failure carries its
 * message; a picture (the diff) is attached as `[[ATTACHMENT|path]]` in its output, which GitLab
 * and Jenkins show with the test case (the path as given: relative to the job's directory).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import junit from 'junit-report-builder';

export interface CheckResult {
  /** What was checked, e.g. `prints "TOTAL 15.93"`. */
  name: string;
  /** The failure message; absent when the check passed. */
  failure?: string;
  /** Shown with the test case (the printed text, the figures). */
  output?: string;
  attachment?: string;
}

export function writeJunit(file: string, suite: string, className: string, seconds: number, checks: readonly CheckResult[]): void {
  const builder = junit.newBuilder();
  const s = builder.testSuite().name(suite).time(seconds);
  for (const check of checks) {
    const c = s.testCase().className(className).name(check.name).time(seconds / Math.max(1, checks.length));
    if (check.failure !== undefined) c.failure(check.failure);
    const output = [check.output, check.attachment && `[[ATTACHMENT|${check.attachment}]]`].filter(Boolean).join('\n');
    if (output) c.standardOutput(output);
  }
  mkdirSync(dirname(resolve(file)), { recursive: true });
  builder.writeTo(file);
}
