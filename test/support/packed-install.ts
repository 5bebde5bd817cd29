/**
 * Installs the packed Slipstream tarball into an empty project with no network: npm takes
 * every package from its cache. A fresh project has no lockfile and npm would ask the registry
 * for each dependency's version list (not kept in the cache by a lockfile-driven install), so
 * the project gets the lockfile npm would write: the tarball plus the production packages of
 * this repository's package-lock.json, at the versions and integrity it pins.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  dev?: boolean;
  devOptional?: boolean;
  [k: string]: unknown;
}

/** The registry's tarball address of a lock entry (this repository's lock leaves some out; npm's cache knows them by it). */
function registryTarball(registry: string, path: string, version: string): string {
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  return `${registry.replace(/\/?$/, '/')}${name}/-/${name.split('/').pop()}-${version}.tgz`;
}

/** `npm pack` of the repository into `dir` (its prepack builds the web UI and the bridge); the tarball's path. */
export function packRepository(dir: string): string {
  const out = execFileSync('npm', ['pack', '--pack-destination', dir, '--json'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const [{ filename }] = JSON.parse(out.slice(out.indexOf('['))) as { filename: string }[];
  return join(dir, basename(filename));
}

/** An empty project in `dir` with the tarball as a devDependency, installed from npm's cache only. */
export function installPacked(dir: string, tarball: string): void {
  const repoLock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; bin: Record<string, string>; engines: Record<string, string> };
  const spec = `file:${tarball}`;
  const registry = execFileSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8' }).trim();
  const packages: Record<string, LockEntry> = {
    '': { name: 'ci-project', version: '1.0.0', devDependencies: { [pkg.name]: spec } },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version, resolved: spec, integrity: `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`,
      dev: true, dependencies: pkg.dependencies, bin: pkg.bin, engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(repoLock.packages)) {
    if (!path.startsWith('node_modules/') || entry.dev || entry.link) continue;
    const { devOptional, ...rest } = entry;
    packages[path] = { ...rest, resolved: rest.resolved ?? registryTarball(registry, path, rest.version!), dev: true, ...(devOptional ? { optional: true } : {}) };
  }
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'ci-project', version: '1.0.0', private: true, devDependencies: { [pkg.name]: spec } }, null, 2)}\n`);
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify({ name: 'ci-project', version: '1.0.0', lockfileVersion: 3, requires: true, packages }, null, 2)}\n`);
  execFileSync('npm', ['ci', '--offline', '--no-audit', '--no-fund'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
}
