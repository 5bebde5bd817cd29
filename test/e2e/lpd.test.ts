/**
 * LPD (RFC 1179) on LPD_PORT with real clients: Debian's `rlpr` and CUPS's `lpd` backend
 * (run directly, as cupsd runs it, with DEVICE_URI), to a queue named by the printer's display
 * name and by its port; queue state answered; a queue that names no printer refused.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import net from 'node:net';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createPrinter, createWorkspaceAndLogin, type Api } from './api.ts';
import { documentText, listDocuments, waitForDocuments } from '../bridge-unit/support/e2e.ts';

const run = promisify(execFile);
/**
 * Display names of this file's printers end with this run's tag: every workspace's printers
 * share the bridge's LPD server, and a name another file gives a printer ("Front till" in
 * ui-everyday.test.ts) names no queue while two printers have it.
 */
const tag = Math.random().toString(36).slice(2, 8);
const lpdPort = inject('lpdPort');
let api: Api;
const dir = mkdtempSync(join(tmpdir(), 'slipstream-lpd-'));

beforeAll(async () => {
  api = (await createWorkspaceAndLogin('lpd')).api;
});

async function printer(displayName: string) {
  const p = await createPrinter(api, { protocol: 'EscPos', displayName });
  return { id: p.printer.id as string, port: p.settings.tcpListenPort as number };
}

function job(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, Buffer.from(`\x1b@${text}\n\x1dV\x42\x00`, 'latin1'));
  return file;
}

/** One LPD command line, and everything the server answers until it closes. */
function lpdQuery(line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(lpdPort, '127.0.0.1', () => s.write(line));
    let out = '';
    s.on('data', (d) => (out += d.toString('latin1')));
    s.on('close', () => resolve(out));
    s.on('error', reject);
  });
}

/**
 * rlpr talks to port 515 only: a plain TCP relay on 515 of a loopback address of this run's
 * own (127.x.y.z, bound as root as CI runs) passes its bytes to LPD_PORT unchanged.
 */
async function relayOn515(): Promise<{ host: string; close(): void }> {
  const host = `127.${10 + Math.floor(Math.random() * 200)}.${Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
  const server = net.createServer((c) => {
    const up = net.connect(lpdPort, '127.0.0.1');
    c.pipe(up).pipe(c);
    c.on('error', () => up.destroy());
    up.on('error', () => c.destroy());
  });
  await new Promise<void>((resolve, reject) => { server.once('error', reject); server.listen(515, host, resolve); });
  return { host, close: () => server.close() };
}

describe('LPD', () => {
  it('rlpr prints to a queue named by the display name and by the port', async () => {
    const name = `Front Till ${tag}`;
    const till = await printer(name);
    const relay = await relayOn515();
    try {
      await run('rlpr', ['--timeout=30', `-H${relay.host}`, `-P${name}`, job('a.bin', 'via rlpr by name')]);
      await run('rlpr', ['--timeout=30', `-H${relay.host}`, `-P${till.port}`, job('b.bin', 'via rlpr by port')]);
    } finally {
      relay.close();
    }
    const docs = await waitForDocuments(api, till.id, 2);
    expect(docs.every((d: any) => d.transport === 'Lpd')).toBe(true);
    expect(docs.map(documentText).join('\n')).toContain('via rlpr by name');
    expect(docs.map(documentText).join('\n')).toContain('via rlpr by port');
  });

  it('refuses a display name two printers share (of any workspace) and prints by port', async () => {
    const name = `Twin ${tag}`;
    const mine = await printer(name);
    const { api: otherApi } = await createWorkspaceAndLogin('lpd other');
    const theirs = await createPrinter(otherApi, { protocol: 'EscPos', displayName: name.toUpperCase() });
    expect(await lpdQuery(`\x03${name}\n`)).toMatch(/more than one printer has this name/);
    const relay = await relayOn515();
    try {
      await expect(run('rlpr', ['--timeout=30', `-H${relay.host}`, `-P${name}`, job('twin.bin', 'to a shared name')])).rejects.toThrow();
      await run('rlpr', ['--timeout=30', `-H${relay.host}`, `-P${mine.port}`, job('twin-port.bin', 'to the port')]);
    } finally {
      relay.close();
    }
    const docs = await waitForDocuments(api, mine.id, 1);
    expect(docs.map(documentText).join('\n')).toContain('to the port');
    expect(docs.map(documentText).join('\n')).not.toContain('to a shared name');
    expect(await listDocuments(otherApi, theirs.printer.id)).toEqual([]);
  });

  it("CUPS's lpd backend prints to a queue by display name and by port", async () => {
    const kitchen = await printer(`Kitchen-${tag}`);
    for (const [queue, text] of [[`Kitchen-${tag}`, 'via cups by name'], [String(kitchen.port), 'via cups by port']]) {
      await run('/usr/lib/cups/backend/lpd', ['42', 'tester', 'receipt', '1', '', job(`${queue}.bin`, text)], {
        env: { ...process.env, DEVICE_URI: `lpd://127.0.0.1:${lpdPort}/${queue}?reserve=none`, CONTENT_TYPE: 'application/vnd.cups-raw' },
        timeout: 30_000,
      });
    }
    const docs = await waitForDocuments(api, kitchen.id, 2);
    expect(docs.every((d: any) => d.transport === 'Lpd')).toBe(true);
    expect(docs.map(documentText).join('\n')).toContain('via cups by name');
    expect(docs.map(documentText).join('\n')).toContain('via cups by port');
  });

  it('answers queue state and refuses an unknown queue', async () => {
    await printer(`Bar${tag}`);
    expect(await lpdQuery(`\x03Bar${tag}\n`)).toMatch(new RegExp(`Bar${tag}: ready`));
    expect(await lpdQuery('\x03nobody\n')).toMatch(/unknown printer/);
    expect(await lpdQuery('\x02nobody\n')).toBe('\x01');
  });
});
