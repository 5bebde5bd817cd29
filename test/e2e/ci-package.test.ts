/**
 * Slipstream as a CI dependency (docs/ci.md), as a team would use it: `npm pack` of this
 * repository installed into an empty project from npm's cache only (test/support/packed-install.ts),
 * then `npx slipstream serve --detach --config`, a receipt and a label printed over TCP,
 * `expect` and `compare` against golden files (one the same, one with a field moved: a diff
 * picture and a JUnit failure), `stop` — and nothing of it left running. Then docs/ci.md's
 * shell script runs as written in that project.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile, spawn, type ExecFileException } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PNG } from 'pngjs';
import { XMLParser } from 'fast-xml-parser';
import { renderPng } from '../../src/engines/render/index.ts';
import { createZplSession } from '../../src/engines/zpl/index.ts';
import { labelPrinterContext } from '../support/printer-context.ts';
import { installPacked, packRepository } from '../support/packed-install.ts';

const root = resolve(import.meta.dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'slipstream-ci-'));
const project = join(work, 'project');
const TOKEN = 'ci-token-not-a-secret-0001';

/**
 * Ports of its own, below Linux's ephemeral range and away from the e2e service's 20000+: the
 * printers in the default printer port block (9101–19100), the HTTP port just above it.
 */
const slot = Math.floor(Math.random() * 80);
const ports = { http: 19200 + slot * 10, receipt: 12000 + slot * 10, label: 12001 + slot * 10 };

interface Run { code: number; stdout: string; stderr: string }

function run(file: string, args: string[], env: Record<string, string> = {}, timeout = 180_000): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd: project, env: { ...process.env, ...env }, timeout }, (error: ExecFileException | null, stdout, stderr) => {
      done({ code: error ? (typeof error.code === 'number' ? error.code : -1) : 0, stdout, stderr });
    });
  });
}

const slipstream = (args: string[], env: Record<string, string> = {}) =>
  run('npx', ['slipstream', ...args], { SLIPSTREAM_URL: `http://127.0.0.1:${ports.http}`, SLIPSTREAM_TOKEN: TOKEN, ...env });

function printOverTcp(port: number, bytes: string | Uint8Array): Promise<void> {
  return new Promise((done, fail) => {
    const socket = connect({ host: '127.0.0.1', port }, () => socket.end(bytes));
    socket.on('error', fail);
    socket.on('close', () => done());
    socket.resume();
  });
}

const RECEIPT = '\x1b@ACME STORE\nCoffee            3.50\nBagel            12.43\nTOTAL            15.93\nTHANK YOU\n\n\x1dV\x00';

function shippingLabel(shipToX = 60): string {
  return [
    '^XA', '^PW812', '^LL1218',
    '^FO30,30^GB752,1158,4^FS',
    '^FO60,60^A0N,50,50^FDACME WAREHOUSE^FS',
    `^FO${shipToX},230^A0N,40,40^FDSHIP TO: JANE DOE^FS`,
    '^FO100,420^BY3^BCN,200,Y,N,N^FD1Z999AA10123456784^FS',
    '^XZ',
  ].join('\n');
}

/** Slipstream's own picture of a label (the renderer behind ?format=png), as a golden file. */
async function goldenOf(zpl: string, file: string): Promise<void> {
  const session = createZplSession(() => labelPrinterContext());
  session.push(new TextEncoder().encode(zpl));
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, (await renderPng(session.finish().canvases)).png);
}

function printersFile(json: string): string {
  const config = JSON.parse(json) as { workspaces: { printers: { tcpListenPort: number }[] }[] };
  const [receipt, label] = config.workspaces[0].printers;
  receipt.tcpListenPort = ports.receipt;
  label.tcpListenPort = ports.label;
  return JSON.stringify(config, null, 2);
}

/** Processes whose working directory is in the project: the service and everything it started. */
function processesIn(dir: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      if (readlinkSync(`/proc/${pid}/cwd`).startsWith(dir)) found.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
    } catch { /* gone, or not ours to read */ }
  }
  return found;
}

async function refused(port: number): Promise<boolean> {
  return new Promise((done) => {
    const s = connect({ host: '127.0.0.1', port }, () => { s.destroy(); done(false); });
    s.on('error', () => done(true));
  });
}

async function nothingLeftRunning(): Promise<void> {
  expect(processesIn(project)).toEqual([]);
  for (const port of Object.values(ports)) expect(await refused(port), `port ${port}`).toBe(true);
}

const docs = readFileSync(resolve(root, 'docs/ci.md'), 'utf8');
const docsPrinters = /<!-- ci-printers -->\s*```json\n([\s\S]*?)```/.exec(docs)?.[1];
const docsScript = /<!-- ci-script:(?! end)[^>]*-->\s*```sh\n([\s\S]*?)```\s*<!-- ci-script: end -->/.exec(docs)?.[1];

beforeAll(async () => {
  mkdirSync(project);
  const tarball = packRepository(work);
  installPacked(project, tarball);
  writeFileSync(join(project, 'printers.json'), printersFile(docsPrinters!));
}, 300_000);

afterAll(async () => {
  // A failed test may have left it running: stop it before the files go.
  if (existsSync(join(project, '.slipstream/service.json'))) await slipstream(['stop']);
  rmSync(work, { recursive: true, force: true });
});

describe('the packed Slipstream in an empty project', () => {
  it('docs/ci.md has its printers file and shell script', () => {
    expect(docsPrinters).toBeDefined();
    expect(docsScript).toBeDefined();
  });

  it('serve --detach, print over TCP, expect, compare against goldens, stop', async () => {
    const serve = await slipstream(['serve', '--detach', '--config', 'printers.json', '--port', String(ports.http)]);
    expect(serve.code, serve.stderr).toBe(0);
    expect(serve.stdout.trim()).toBe(`http://127.0.0.1:${ports.http}`);
    expect((await fetch(`http://127.0.0.1:${ports.http}/api/health`)).status).toBe(200);
    expect(existsSync(join(project, '.slipstream/.dev.vars')), 'secrets are kept with the state').toBe(true);
    expect(existsSync(join(project, 'node_modules/slipstream/.dev.vars'))).toBe(false);

    await printOverTcp(ports.receipt, RECEIPT);
    await printOverTcp(ports.label, shippingLabel());
    await printOverTcp(ports.label, shippingLabel(70));

    const receipt = await slipstream(['expect', '--printer', 'Till 1', '--text', 'TOTAL 15.93', '--text', 'THANK YOU', '--junit', 'reports/receipt.xml']);
    expect(receipt.code, receipt.stderr).toBe(0);
    const missing = await slipstream(['expect', '--printer', 'Till 1', '--text', 'TOTAL 15.93', '--timeout', '1']);
    expect(missing.code, 'the receipt was taken: no second document').toBe(1);

    const first = await slipstream(['expect', '--printer', 'Parcel labels', '--text', 'SHIP TO']);
    const second = await slipstream(['expect', '--printer', 'Parcel labels', '--text', 'TOTAL 15.93', '--junit', 'reports/label-text.xml']);
    expect(first.code, first.stderr).toBe(0);
    expect(second.code, 'the label does not say TOTAL').toBe(1);
    const [firstLabel, movedLabel] = [first.stdout.trim(), second.stdout.trim()];
    expect(movedLabel).not.toBe(firstLabel);

    await goldenOf(shippingLabel(), join(project, 'golden/label.png'));
    const same = await slipstream(['compare', firstLabel, '--golden', 'golden/label.png', '--junit', 'reports/same.xml']);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('0.00% of');

    const moved = await slipstream(['compare', movedLabel, '--golden', 'golden/label.png', '--diff', 'reports/label.diff.png', '--junit', 'reports/moved.xml']);
    expect(moved.code, moved.stderr).toBe(1);
    const diff = PNG.sync.read(readFileSync(join(project, 'reports/label.diff.png')));
    let red = 0, blue = 0;
    for (let p = 0; p < diff.data.length; p += 4) {
      if (diff.data[p] === 255 && diff.data[p + 1] === 0 && diff.data[p + 2] === 0) red++;
      if (diff.data[p] === 0 && diff.data[p + 1] === 0 && diff.data[p + 2] === 255) blue++;
    }
    expect(red).toBeGreaterThan(100);
    expect(blue).toBeGreaterThan(100);

    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });
    const report = (f: string) => xml.parse(readFileSync(join(project, 'reports', f), 'utf8')).testsuites;
    expect(report('receipt.xml')).toMatchObject({ tests: '2', failures: '0' });
    const labelText = report('label-text.xml');
    expect(labelText).toMatchObject({ tests: '1', failures: '1' });
    expect(labelText.testsuite.testcase.failure.message).toContain('does not contain "TOTAL 15.93"');
    expect(report('same.xml')).toMatchObject({ tests: '1', failures: '0' });
    const failed = report('moved.xml');
    expect(failed).toMatchObject({ tests: '1', failures: '1' });
    expect(failed.testsuite.testcase.failure.message).toMatch(/% of \d+ inked dots differ \(tolerance 0%\): \d+ missing \(red\), \d+ extra \(blue\)/);
    expect(failed.testsuite.testcase['system-out']).toContain('[[ATTACHMENT|reports/label.diff.png]]');

    const stop = await slipstream(['stop']);
    expect(stop.code, stop.stderr).toBe(0);
    await nothingLeftRunning();
  }, 300_000);

  it('serve in the foreground stops cleanly on SIGTERM', async () => {
    // The CLI process itself, as a container's or a supervisor's SIGTERM reaches it (npx does not pass signals on).
    const child = spawn(join(project, 'node_modules/.bin/slipstream'), ['serve', '--config', 'printers.json', '--port', String(ports.http), '--state', 'foreground'], {
      cwd: project, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    for (let i = 0; !output.includes('Slipstream is running at'); i++) {
      expect(i < 1200, output).toBe(true);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`http://127.0.0.1:${ports.http}/api/health`)).status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited, output).toBe(0);
    expect(output).toContain('bridge.stopped');
    await nothingLeftRunning();
  }, 300_000);

  it("docs/ci.md's shell script runs as written", async () => {
    // The project's own test prints a receipt and a label, as the application under test would.
    writeFileSync(join(project, 'print.mjs'), [
      "import { connect } from 'node:net';",
      'const send = (port, text) => new Promise((done) => { const s = connect(port, "127.0.0.1", () => s.end(text)); s.on("close", done); });',
      `await send(${ports.receipt}, ${JSON.stringify(RECEIPT)});`,
      `await send(${ports.label}, ${JSON.stringify(shippingLabel())});`,
    ].join('\n'));
    const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ ...pkg, scripts: { test: 'node print.mjs' } }, null, 2));
    await goldenOf(shippingLabel(), join(project, 'test/golden/parcel-label.png'));
    // A fresh CI job: no state, no reports.
    for (const dir of ['reports', '.slipstream']) rmSync(join(project, dir), { recursive: true, force: true });

    const script = await run('bash', ['-e', '-o', 'pipefail', '-c', docsScript!], { SLIPSTREAM_PORT: String(ports.http) });
    expect(script.code, `${script.stdout}\n${script.stderr}`).toBe(0);
    for (const f of ['receipt.xml', 'label-text.xml', 'label-picture.xml']) {
      expect(readFileSync(join(project, 'reports', f), 'utf8'), f).toContain('failures="0"');
    }
    await nothingLeftRunning();
  }, 300_000);
});
