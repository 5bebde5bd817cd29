/**
 * The `slipstream` CLI (bin/slipstream.mjs) against the running service (`npm start`, from
 * global-setup): `print` then `render` in every form, `wait` for a receipt printed over real TCP
 * by receipt-printer-encoder's bytes, its exit codes (0 found, 1 timed out, 2 error) and --help.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { decode } from 'fast-png';
import { PDFDocument } from 'pdf-lib';
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { baseUrl, createPrinter, createWorkspaceAndLogin } from './api.ts';
import { printAndClose } from '../bridge-unit/support/tcp.ts';

const root = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'slipstream-cli-'));
let token = '';

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((res, rej) => {
    const child = spawn(process.execPath, [resolve(root, 'bin/slipstream.mjs'), ...args], {
      cwd: root,
      env: { ...process.env, SLIPSTREAM_URL: baseUrl(), SLIPSTREAM_TOKEN: token, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '', stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', rej);
    child.on('close', (code) => res({ code: code ?? -1, stdout, stderr }));
  });
}

const LINES = ['SLIPSTREAM CLI', 'Flat white      3.40', 'TOTAL           3.40'];
function receipt(lines = LINES): Uint8Array {
  const encoder = new ReceiptPrinterEncoder({ printerModel: 'epson-tm-t88vi' as never });
  encoder.initialize();
  for (const l of lines) encoder.line(l);
  encoder.cut();
  return encoder.encode();
}

let printerName = '';
let printerId = '';
let port = 0;
beforeAll(async () => {
  const ws = await createWorkspaceAndLogin('cli');
  token = ws.token;
  printerName = `cli printer ${Date.now()}`;
  const p = await createPrinter(ws.api, { displayName: printerName, widthInDots: 576 });
  printerId = p.printer.id;
  port = p.settings.tcpListenPort;
});

describe('slipstream CLI', () => {
  it('--help on every command; no command or an unknown one is exit 2', async () => {
    const main = await cli(['--help']);
    expect(main.code).toBe(0);
    for (const c of ['login', 'printers', 'print', 'wait', 'render', 'tail', 'serve', 'stop', 'expect', 'compare']) {
      expect(main.stdout).toContain(c);
      const h = await cli([c, '--help']);
      expect(h.code, c).toBe(0);
      expect(h.stdout, c).toContain(`Usage: slipstream ${c}`);
    }
    expect((await cli([])).code).toBe(2);
    expect((await cli(['frobnicate'])).code).toBe(2);
  });

  it('login and printers; a wrong token is exit 2 with the reason', async () => {
    const login = await cli(['login']);
    expect(login.code).toBe(0);
    expect(login.stdout.trim().split('.').length).toBe(3); // a JWT
    const printers = await cli(['printers']);
    expect(printers.stdout).toContain(`${printerId}\tEscPos\t${port}\t${printerName}`);
    const bad = await cli(['printers'], { SLIPSTREAM_TOKEN: 'not-a-token' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Login failed: HTTP 401/);
  });

  it('print FILE --printer NAME answers the document id; render gives text, raw, PNG and PDF', async () => {
    const bytes = receipt();
    const file = join(dir, 'receipt.bin');
    writeFileSync(file, bytes);
    const printed = await cli(['print', file, '--printer', printerName]);
    expect(printed.code, printed.stderr).toBe(0);
    const id = printed.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const text = await cli(['render', id, '--format', 'text']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.trimEnd().split('\n')).toEqual(LINES);
    const raw = await cli(['render', id, '--format', 'raw', '-o', join(dir, 'out.bin'), '--printer', printerId]);
    expect(raw.code, raw.stderr).toBe(0);
    expect(new Uint8Array(readFileSync(join(dir, 'out.bin')))).toEqual(bytes);
    expect((await cli(['render', id, '--format', 'png', '-o', join(dir, 'out.png')])).code).toBe(0);
    expect(decode(readFileSync(join(dir, 'out.png'))).width).toBe(576);
    expect((await cli(['render', id, '--format', 'pdf', '-o', join(dir, 'out.pdf')])).code).toBe(0);
    expect((await PDFDocument.load(readFileSync(join(dir, 'out.pdf')))).getPageCount()).toBe(1);
    // Binary to a terminal is refused; an unknown document is exit 2.
    expect((await cli(['render', id, '--format', 'png'])).code).toBe(2);
    expect((await cli(['render', '00000000-0000-4000-8000-000000000000', '--format', 'text'])).code).toBe(2);
  });

  it('print --tcp sends the bytes to the printer port', async () => {
    const file = join(dir, 'tcp.bin');
    writeFileSync(file, receipt(['over tcp']));
    const printed = await cli(['print', file, '--printer', printerId, '--tcp']);
    expect(printed.code, printed.stderr).toBe(0);
    expect((await cli(['render', printed.stdout.trim(), '--format', 'text'])).stdout.trim()).toBe('over tcp');
  });

  it('wait returns a receipt printed over TCP during the wait (exit 0), and exit 1 on timeout', async () => {
    const waiting = cli(['wait', '--printer', printerName, '--timeout', '30', '--format', 'text']);
    await new Promise((r) => setTimeout(r, 2500));
    await printAndClose(port, Buffer.from(receipt(['Waited for', 'by the CLI'])));
    const done = await waiting;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout.trimEnd()).toBe('Waited for\nby the CLI');
    const timedOut = await cli(['wait', '--printer', printerId, '--timeout', '1']);
    expect(timedOut.code).toBe(1);
    expect(timedOut.stderr).toContain('No document');
  });

  it('expect takes the documents in print order, each once; compare records, passes and fails clearly', async () => {
    const state = join(dir, 'expect-state');
    const list = await (await fetch(`${baseUrl()}/api/printers/${printerId}/documents/canvas?Limit=100&IncludeStatusPolls=false`, {
      headers: { authorization: `Bearer ${(await cli(['login'])).stdout.trim()}` },
    })).json() as { result: { items: { id: string }[] } };
    const printed = list.result.items.map((d) => d.id).reverse();
    expect(printed.length).toBeGreaterThanOrEqual(2);
    const first = await cli(['expect', '--printer', printerName, '--text', 'SLIPSTREAM CLI', '--state', state]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout.trim()).toBe(printed[0]);
    const second = await cli(['expect', '--printer', printerName, '--state', state]);
    expect(second.stdout.trim()).toBe(printed[1]);
    const wrong = await cli(['expect', '--printer', printerName, '--text', 'NOT ON IT', '--state', state]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('does not contain "NOT ON IT"');

    const golden = join(dir, 'goldens/receipt.png');
    const none = await cli(['compare', printed[0], '--golden', golden]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('--update');
    expect((await cli(['compare', printed[0], '--golden', golden, '--update'])).code).toBe(0);
    expect(decode(readFileSync(golden)).width).toBe(576);
    const same = await cli(['compare', printed[0], '--golden', golden]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stderr).toContain('0.00% of');
    const other = await cli(['compare', printed[1], '--golden', golden, '--tolerance', '100']);
    expect(other.code, 'any picture passes at 100 %').toBe(0);
    writeFileSync(join(dir, 'not-a.png'), 'hello');
    const bad = await cli(['compare', printed[0], '--golden', join(dir, 'not-a.png')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('is not a PNG picture');
    expect((await cli(['compare', printed[0], '--golden', golden, '--tolerance', 'some'])).code).toBe(2);
  });

  it('tail follows the printer live (--count ends it)', async () => {
    const following = cli(['tail', '--printer', printerName, '--count', '1', '--format', 'text']);
    await new Promise((r) => setTimeout(r, 2500));
    await printAndClose(port, Buffer.from(receipt(['Live line'])));
    const done = await following;
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toBe('Live line\n\f\n');
    expect(done.stderr).toContain(`Following ${printerName}`);
  });
});
