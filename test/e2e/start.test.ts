/**
 * `npm start` itself: refuses weak JWT secrets naming the setting, and stops the whole
 * service (wrangler, workerd, bridge) on SIGTERM with no orphans.
 */
import { describe, expect, it } from 'vitest';
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePorts } from '../bridge-unit/support/tcp.ts';
import { alive } from '../support/npm-start.ts';

const root = resolve(import.meta.dirname, '../..');
const tsx = resolve(root, 'node_modules/tsx/dist/cli.mjs');

function startService(env: Record<string, string>) {
  const stateDir = mkdtempSync(join(tmpdir(), 'slipstream-start-'));
  const child = spawn(process.execPath, [tsx, resolve(root, 'scripts/start.ts')], {
    cwd: root,
    env: { ...process.env, STATE_DIR: stateDir, SLIPSTREAM_SKIP_BUILD: '1', BIND_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { child, exited, output: () => output, cleanup: () => rmSync(stateDir, { recursive: true, force: true }) };
}

/** All descendants of a process, from /proc. */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const ps = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' });
  const rows = ps.trim().split('\n').map((l) => l.trim().split(/\s+/).map(Number));
  const walk = (p: number) => {
    for (const [c, pp] of rows) if (pp === p) { out.push(c); walk(c); }
  };
  walk(pid);
  return out;
}

describe('npm start', () => {
  for (const [label, secret] of [
    ['missing', ''],
    ['too short', 'abc123'],
    ['a placeholder', 'change-me-please-0123456789abcdefghijklmnop'],
  ] as const) {
    it(`exits non-zero naming JWT_SECRET when the secret is ${label}`, async () => {
      const s = startService({ JWT_SECRET: secret, PORT: '0' });
      const code = await s.exited;
      s.cleanup();
      expect(code).not.toBe(0);
      expect(s.output()).toMatch(/JWT_SECRET/);
      expect(s.output()).not.toMatch(/Slipstream is running/);
    });
  }

  it('refuses a PRINTER_PORT_BASE whose block overlaps the ephemeral port range, naming the setting and the range', async () => {
    const [first, last] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    expect(first).toBeLessThanOrEqual(40001); // the test's premise: Linux's default range starts at 32768
    const s = startService({ JWT_SECRET: randomBytes(32).toString('hex'), BRIDGE_SECRET: 'x'.repeat(32), PRINTER_PORT_BASE: '40000', PORT: '0' });
    const code = await s.exited;
    s.cleanup();
    expect(code).not.toBe(0);
    expect(s.output()).toMatch(/PRINTER_PORT_BASE=40000/);
    expect(s.output()).toContain(`ephemeral port range ${first}–${last}`);
    expect(s.output()).not.toMatch(/applying D1 migrations|Slipstream is running/);
  });

  it('refuses an HTTP PORT inside the printer port block, naming the setting', async () => {
    const s = startService({ JWT_SECRET: randomBytes(32).toString('hex'), BRIDGE_SECRET: 'x'.repeat(32), PRINTER_PORT_BASE: '9100', PORT: '9229' });
    const code = await s.exited;
    s.cleanup();
    expect(code).not.toBe(0);
    expect(s.output()).toMatch(/PORT=9229 is inside the printer port block 9101–19100/);
  });

  it('runs the Worker and the bridge, then stops both cleanly on SIGTERM', async () => {
    const [port] = await freePorts(1); // a random port could be in use (the run failed once on one)
    const s = startService({
      JWT_SECRET: randomBytes(32).toString('hex'),
      BRIDGE_SECRET: randomBytes(16).toString('hex'),
      PORT: String(port),
      PRINTER_PORT_BASE: String(12000 + Math.floor(Math.random() * 80) * 100),
    });
    for (let i = 0; i < 600 && !s.output().includes('Slipstream is running'); i++) await new Promise((r) => setTimeout(r, 100));
    expect(s.output()).toContain(`http://127.0.0.1:${port}`);
    const greeting = await fetch(`http://127.0.0.1:${port}/api/workspaces/greeting`);
    expect(greeting.status).toBe(200);
    const tree = descendants(s.child.pid!);
    expect(tree.length).toBeGreaterThanOrEqual(2); // wrangler (+ workerd) and the bridge
    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await new Promise((r) => setTimeout(r, 300));
    expect(tree.filter(alive)).toEqual([]);
    s.cleanup();
  }, 120_000);
});
