/**
 * "Printers as code": `npm start` with SLIPSTREAM_CONFIG (or `--config FILE`) creates the
 * declared workspace with its token and the printers on their declared ports; a second start
 * with the same file changes nothing; a bad file or a taken port stops start naming the entry.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { freePorts, printAndClose } from '../bridge-unit/support/tcp.ts';
import { pollUntil } from '../support/poll.ts';

const root = resolve(import.meta.dirname, '../..');
const tsx = resolve(root, 'node_modules/tsx/dist/cli.mjs');
const stateDir = mkdtempSync(join(tmpdir(), 'slipstream-config-'));
const dir = mkdtempSync(join(tmpdir(), 'slipstream-config-file-'));
const secrets = { JWT_SECRET: randomBytes(32).toString('hex'), BRIDGE_SECRET: randomBytes(16).toString('hex') };
const portBase = 12000 + Math.floor(Math.random() * 80) * 100;

function start(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [tsx, resolve(root, 'scripts/start.ts'), ...args], {
    cwd: root,
    env: { ...process.env, STATE_DIR: stateDir, SLIPSTREAM_SKIP_BUILD: '1', BIND_HOST: '127.0.0.1', PRINTER_PORT_BASE: String(portBase), ...secrets, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const running = async () => {
    for (let i = 0; i < 900 && !output.includes('Slipstream is running'); i++) {
      if (child.exitCode !== null) throw new Error(`start exited (${child.exitCode}):\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    if (!output.includes('Slipstream is running')) throw new Error(`start did not come up:\n${output}`);
  };
  const stop = async () => { child.kill('SIGTERM'); return exited; };
  return { exited, running, stop, output: () => output, exitCode: () => child.exitCode };
}

afterAll(() => {
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});

describe('printers as code (SLIPSTREAM_CONFIG)', async () => {
  const [httpPort] = await freePorts(1);
  // Declared ports inside this run's own port block; automatic assignment continues above them.
  const receiptPort = portBase + 50;
  const labelPort = portBase + 51;
  const base = `http://127.0.0.1:${httpPort}`;
  const token = `ci-${randomBytes(18).toString('hex')}`;
  const workspace = { id: randomUUID(), name: 'CI bench', token };
  // A model other than the protocol's default (with its own multi-byte encoding) on a declared port.
  const receipt = { id: randomUUID(), displayName: 'Till 1', protocol: 'EscPos', model: 'bixolon-srp350iii', widthInDots: 576, tcpListenPort: receiptPort };
  const label = { id: randomUUID(), displayName: 'Shipping labels', protocol: 'Epl', model: 'zebra-gk420d', widthInDots: 812, heightInDots: 1218, tcpListenPort: labelPort };
  const auto = { id: randomUUID(), displayName: 'Kitchen', protocol: 'EscPos', widthInDots: 384 };
  const file = join(dir, 'printers.json');
  writeFileSync(file, JSON.stringify({ workspaces: [{ ...workspace, printers: [receipt, label, auto] }] }, null, 2));

  async function signedIn() {
    const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    return async (path: string) => (await fetch(base + path, { headers: { authorization: `Bearer ${accessToken}` } })).json() as Promise<any>;
  }
  // Names, settings, ports and ids; not the read stamps, which these very reads move.
  const snapshot = (printers: any[]) => printers.map((p) => ({ ...p.printer, ...p.settings, lastApiReadAt: undefined, lastWebReadAt: undefined }))
    .sort((a, b) => a.id.localeCompare(b.id));

  let first: any[] = [];

  /**
   * GET /api/health from the moment `npm start` is spawned: every answer with what start had
   * printed by then. The first 200 logs in with the declared token at once.
   */
  async function watchHealth(s: ReturnType<typeof start>) {
    const answers: { status: number; fileApplied: boolean }[] = [];
    let firstLogin: number | null = null;
    while (s.exitCode() === null && firstLogin === null) {
      const fileApplied = s.output().includes('printers file');
      const status = await fetch(`${base}/api/health`).then((r) => r.status, () => 0);
      if (status) answers.push({ status, fileApplied });
      if (status === 200) {
        const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
        firstLogin = login.status;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    return { answers, firstLogin };
  }

  it('creates the workspace with its token and the printers on their declared ports', async () => {
    const s = start([], { SLIPSTREAM_CONFIG: file, PORT: String(httpPort) });
    try {
      const health = watchHealth(s);
      await s.running();
      // Health was "starting" before the file was applied (and the bridge bound its ports), "ready"
      // after; the URL line came only once it was ready; the declared token signed in on the first try.
      const { answers, firstLogin } = await health;
      expect(answers.some((a) => a.status === 503 && !a.fileApplied)).toBe(true);
      expect(answers.at(-1)).toEqual({ status: 200, fileApplied: true });
      expect(firstLogin).toBe(200);
      expect((await fetch(`${base}/api/health`)).status).toBe(200);
      expect(s.output()).toMatch(/workspaces: 1 created, 0 updated, 0 unchanged; printers: 3 created, 0 updated, 0 unchanged/);
      const get = await signedIn();
      const printers = await get('/api/printers') as any[];
      const byId = new Map(printers.map((p) => [p.printer.id, p]));
      expect(byId.get(receipt.id).settings).toMatchObject({ protocol: 'EscPos', model: 'bixolon-srp350iii', multiByteEncoding: 'KsC5601', widthInDots: 576, tcpListenPort: receiptPort });
      expect(byId.get(label.id).settings).toMatchObject({ protocol: 'Epl', widthInDots: 812, heightInDots: 1218, tcpListenPort: labelPort });
      expect(byId.get(auto.id).settings.tcpListenPort).toBe(labelPort + 1);
      expect(byId.get(receipt.id).printer.ownerWorkspaceId).toBe(workspace.id);
      // The declared port really listens: a job printed there becomes a document.
      await pollUntil(async () => (await get(`/api/printers/${receipt.id}`)).runtimeStatus?.state === 'Started', { timeoutMs: 30_000, everyMs: 200, what: 'the declared port to listen' });
      await printAndClose(receiptPort, Buffer.from('\x1b@DECLARED PORT\n\x1dV\x00', 'latin1'));
      const docs = await pollUntil(async () => {
        const items = (await get(`/api/printers/${receipt.id}/documents/canvas`)).result.items ?? [];
        return items.length > 0 && items;
      }, { timeoutMs: 30_000, everyMs: 200, what: 'the document printed to the declared port' });
      expect(JSON.stringify(docs[0])).toContain('DECLARED PORT');
      first = snapshot(await get('/api/printers'));
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 180_000);

  it('a second start with the same file (as --config) changes nothing', async () => {
    const s = start(['--config', file], { PORT: String(httpPort) });
    try {
      await s.running();
      expect(s.output()).toMatch(/workspaces: 0 created, 0 updated, 1 unchanged; printers: 0 created, 0 updated, 3 unchanged/);
      const get = await signedIn();
      expect(snapshot(await get('/api/printers'))).toEqual(first);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 180_000);

  it('a bad file stops start before anything runs, naming the file, the entry and the field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ workspaces: [{ ...workspace, printers: [receipt, { ...label, widthInDots: 2 }] }] }));
    const s = start(['--config', bad], { PORT: String(httpPort) });
    expect(await s.exited).not.toBe(0);
    expect(s.output()).toContain(bad);
    expect(s.output()).toContain('workspaces[0] "CI bench" › printers[1] "Shipping labels"');
    expect(s.output()).toMatch(/field widthInDots/);
    expect(s.output()).not.toMatch(/Slipstream is running|applying D1 migrations/);
  }, 60_000);

  it('a declared port another program holds stops start naming the printer', async () => {
    const [held] = await freePorts(1);
    const squatter = createServer();
    await new Promise<void>((r) => squatter.listen(held, '127.0.0.1', () => r()));
    try {
      const busy = join(dir, 'busy.json');
      const blocked = { id: randomUUID(), displayName: 'Blocked till', protocol: 'EscPos', widthInDots: 576, tcpListenPort: held };
      writeFileSync(busy, JSON.stringify({ workspaces: [{ ...workspace, printers: [blocked] }] }));
      const s = start(['--config', busy], { PORT: String(httpPort) });
      expect(await s.exited).not.toBe(0);
      expect(s.output()).toContain(`printer "Blocked till" (${blocked.id}): port ${held} cannot be bound`);
      expect(s.output()).not.toMatch(/Slipstream is running|applying D1 migrations/);
    } finally {
      await new Promise((r) => squatter.close(r));
    }
  }, 60_000);

  it('a port that is already taken stops start naming the printer, and nothing is written', async () => {
    const clash = join(dir, 'clash.json');
    const newcomer = { id: randomUUID(), displayName: 'Newcomer', protocol: 'EscPos', widthInDots: 576, tcpListenPort: receiptPort };
    // The file no longer lists "Till 1" (declarations create and update, never delete), so only the database knows the port is taken.
    writeFileSync(clash, JSON.stringify({ workspaces: [{ ...workspace, name: 'Renamed', printers: [newcomer] }] }));
    const s = start(['--config', clash], { PORT: String(httpPort) });
    expect(await s.exited).not.toBe(0);
    expect(s.output()).toContain(`printer "Newcomer" (${newcomer.id})`);
    expect(s.output()).toContain(`port ${receiptPort} is taken by printer "Till 1"`);
    expect(s.output()).not.toMatch(/Slipstream is running/);
    // The conflict was found before any write: the workspace kept its name.
    const again = start([], { SLIPSTREAM_CONFIG: file, PORT: String(httpPort) });
    try {
      await again.running();
      expect(again.output()).toMatch(/workspaces: 0 created, 0 updated, 1 unchanged/);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 180_000);
});
