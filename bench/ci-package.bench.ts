/**
 * Slipstream as a CI dependency (docs/ci.md), the figures a team lives with: the packed
 * tarball's size, the installed node_modules' size (and its largest packages), the time from
 * `npx slipstream serve --detach` to `GET /api/health` 200 in an empty project (a fresh state,
 * as in a CI job), and `compare`'s time for a 4×6 in label at 203 dpi (in process, and the
 * whole `npx slipstream compare` command against the running service).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { comparePrintout } from '../src/cli/printout-diff.ts';
import { renderPng } from '../src/engines/render/index.ts';
import { createZplSession } from '../src/engines/zpl/index.ts';
import { labelPrinterContext } from '../test/support/printer-context.ts';
import { installPacked, packRepository } from '../test/support/packed-install.ts';

const TOKEN = 'bench-token-not-a-secret-01';
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Bytes on disk as du counts them: workerd's binary is hard-linked into two packages, counted once. */
function sizeOf(path: string): number {
  return Number(execFileSync('du', ['-sb', path], { encoding: 'utf8' }).split('\t')[0]);
}

const LABEL = [
  '^XA', '^PW812', '^LL1218',
  '^FO30,30^GB752,1158,4^FS',
  '^FO60,60^A0N,50,50^FDACME WAREHOUSE^FS',
  '^FO60,130^A0N,30,30^FD1 Industrial Way, Springfield^FS',
  '^FO60,230^A0N,40,40^FDSHIP TO: JANE DOE^FS',
  '^FO100,420^BY3^BCN,200,Y,N,N^FD1Z999AA10123456784^FS',
  '^FO60,720^BQN,2,6^FDQA,https://example.com/t/1Z999^FS',
  '^FO400,760^A0N,60,60^FDPKG 1/1^FS',
  '^XZ',
].join('\n');

async function labelPng(zpl: string): Promise<Buffer> {
  const s = createZplSession(() => labelPrinterContext());
  s.push(new TextEncoder().encode(zpl));
  return Buffer.from((await renderPng(s.finish().canvases)).png);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'slipstream-bench-ci-'));
  const project = join(work, 'project');
  mkdirSync(project);
  // HTTP just above the default printer port block (9101–19100), the printer inside it.
  const port = 19200 + Math.floor(Math.random() * 50) * 10;
  const url = `http://127.0.0.1:${port}`;
  const env = { ...process.env, SLIPSTREAM_URL: url, SLIPSTREAM_TOKEN: TOKEN };
  try {
    const tarball = packRepository(work);
    console.log(`tarball ${MB(statSync(tarball).size)}`);
    let t = Date.now();
    installPacked(project, tarball);
    const modules = join(project, 'node_modules');
    console.log(`installed from the npm cache in ${((Date.now() - t) / 1000).toFixed(1)} s; node_modules ${MB(sizeOf(modules))}`);
    const names = readdirSync(modules).filter((n) => !n.startsWith('.'))
      .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]));
    // One du over all of them: a hard-linked file counts once, for the first package that has it.
    const packages = execFileSync('du', ['-sb', ...names.map((n) => join(modules, n))], { encoding: 'utf8' }).trim().split('\n')
      .map((line) => line.split('\t')).map(([size, path]) => ({ n: path.slice(modules.length + 1), size: Number(size) }))
      .sort((a, b) => b.size - a.size).slice(0, 6);
    console.log(`  largest: ${packages.map((p) => `${p.n} ${MB(p.size)}`).join(', ')}`);

    writeFileSync(join(project, 'printers.json'), JSON.stringify({
      workspaces: [{ id: '0b7e4c52-3f0d-4c1e-9a56-2f1d1c0a9e09', name: 'Bench', token: TOKEN, printers: [
        { id: '5f0c8a7e-1b2d-4e3f-8a9b-0c1d2e3f4a09', displayName: 'Labels', protocol: 'Zpl', widthInDots: 812, heightInDots: 1218, tcpListenPort: port - 5000 },
      ] }],
    }));
    // Two cold starts, each from a fresh state as in a CI job; the service of the second stays up.
    const startTimes: number[] = [];
    for (let round = 0; round < 2; round++) {
      if (round > 0) execFileSync('npx', ['slipstream', 'stop'], { cwd: project, env, stdio: 'ignore' });
      rmSync(join(project, '.slipstream'), { recursive: true, force: true });
      t = Date.now();
      execFileSync('npx', ['slipstream', 'serve', '--detach', '--config', 'printers.json', '--port', String(port)], { cwd: project, env, stdio: 'ignore' });
      startTimes.push(Date.now() - t);
    }
    console.log(`serve --detach to health 200 (empty project, fresh state): ${startTimes.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`);

    const golden = await labelPng(LABEL);
    const printout = await labelPng(LABEL.replace('^FO60,230', '^FO70,230'));
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s = performance.now();
      comparePrintout(PNG.sync.read(golden), PNG.sync.read(printout));
      times.push(performance.now() - s);
    }
    console.log(`compare, 4x6 in at 203 dpi (812x1218), in process: median ${median(times).toFixed(0)} ms of 5`);

    await new Promise<void>((done, fail) => {
      const s = connect({ host: '127.0.0.1', port: port - 5000 }, () => s.end(LABEL));
      s.on('error', fail);
      s.on('close', () => done());
    });
    const doc = execFileSync('npx', ['slipstream', 'expect', '--printer', 'Labels'], { cwd: project, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    writeFileSync(join(project, 'golden.png'), golden);
    t = Date.now();
    execFileSync('npx', ['slipstream', 'compare', doc, '--golden', 'golden.png'], { cwd: project, env, stdio: 'ignore' });
    console.log(`npx slipstream compare (the whole command: Node, login, ?format=png, compare, diff picture): ${Date.now() - t} ms`);
  } finally {
    execFileSync('npx', ['slipstream', 'stop'], { cwd: project, env, stdio: 'ignore' });
    rmSync(work, { recursive: true, force: true });
  }
}
