/**
 * The project's `.npmrc` sets `loglevel=error`, so `npm install` on a machine whose Node is 20
 * stays quiet about tools that declare Node 22 (wrangler, miniflare, vitest…): npm checks their
 * `engines` against the Node that runs npm, while every npm script runs them on the project's
 * own Node (the `node` devDependency). This test is the check npm would have made, against the
 * Node that really runs them: it fails when an installed package does not support that Node.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
};
const projectNode = manifest.devDependencies.node;

interface Installed {
  name: string;
  version: string;
  nodeRange: string;
}

/** Every package installed under `dir` (scoped and nested node_modules included). */
function installedPackages(dir: string, out: Installed[] = []): Installed[] {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.name.startsWith('@')) {
      installedPackages(path, out);
      continue;
    }
    const file = join(path, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
    if (typeof pkg.engines?.node === 'string') out.push({ name: pkg.name ?? entry.name, version: pkg.version ?? '?', nodeRange: pkg.engines.node });
    installedPackages(join(path, 'node_modules'), out);
  }
  return out;
}

describe('the Node that runs the tools', () => {
  it('is the project Node pinned in package.json', () => {
    expect(semver.valid(projectNode), 'devDependencies.node must be an exact version').toBe(projectNode);
    expect(process.version).toBe(`v${projectNode}`);
    expect(semver.satisfies(projectNode, manifest.engines.node)).toBe(true);
  });

  it('satisfies the engines of every installed package', () => {
    const packages = installedPackages(join(root, 'node_modules'));
    expect(packages.length).toBeGreaterThan(50);
    const unsupported = packages
      .filter((p) => semver.validRange(p.nodeRange) && !semver.satisfies(projectNode, p.nodeRange, { includePrerelease: true }))
      .map((p) => `${p.name}@${p.version} wants node ${p.nodeRange}`);
    expect(unsupported).toEqual([]);
  });

  it('keeps npm install quiet only through the project .npmrc', () => {
    const npmrc = readFileSync(join(root, '.npmrc'), 'utf8');
    expect(npmrc).toMatch(/^loglevel=error$/m);
  });
});
