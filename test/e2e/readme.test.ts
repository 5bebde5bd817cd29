/**
 * The README's quick start runs as written: the block between the `quick-start` markers is
 * taken from README.md at test time (so the test breaks when the README drifts) and run by
 * bash against the e2e service, twice (new ids each run: no 409 on the second). It must end
 * with the printed receipt's text in the documents it lists.
 */
import { describe, expect, inject, it } from 'vitest';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { PrintersConfig } from '../../src/worker/schemas/printers-config.ts';

const root = resolve(import.meta.dirname, '../..');

/** The shell block between `<!-- quick-start: … -->` and `<!-- quick-start: end -->`. */
export function quickStartBlock(readme: string): string {
  const m = /<!-- quick-start:(?! end)[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- quick-start: end -->/.exec(readme);
  if (!m) throw new Error('README.md has no quick-start block between <!-- quick-start: … --> and <!-- quick-start: end -->');
  return m[1];
}

describe('README quick start', () => {
  const script = quickStartBlock(readFileSync(resolve(root, 'README.md'), 'utf8'));

  it('needs no nc and no fixed ids', () => {
    expect(script).not.toMatch(/\bnc\b/);
    expect(script).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i);
  });

  it('prints a receipt over TCP and lists it, on a first and a second run', async () => {
    for (const run of [1, 2]) {
      // The machine's node (what a reader has), not only the project's: PATH as the test has it.
      const { stdout } = await promisify(execFile)('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: root, env: { ...process.env, SLIPSTREAM_URL: inject('baseUrl') }, timeout: 30_000,
      });
      const page = JSON.parse(stdout) as { result: { items: { canvases: { items: { type: string; text?: string }[] }[] }[] } };
      expect(page.result.items, `run ${run}`).toHaveLength(1);
      const texts = page.result.items[0].canvases.flatMap((c) => c.items).filter((i) => i.type === 'text').map((i) => i.text);
      expect(texts.join('\n'), `run ${run}`).toContain('Hello, Slipstream!');
    }
  });

  it('the "Printers as code" example is a valid printers file', () => {
    const readme = readFileSync(resolve(root, 'README.md'), 'utf8');
    const example = /## Printers as code[\s\S]*?```json\n([\s\S]*?)```/.exec(readme);
    expect(example, 'README.md has a JSON example under "Printers as code"').not.toBeNull();
    const parsed = PrintersConfig.safeParse(JSON.parse(example![1]));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  });
});
