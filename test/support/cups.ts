/**
 * CUPS's own Zebra drivers as a client nobody here wrote: the Zebra ZPL and EPL2 PPDs of CUPS's
 * sample drivers (`sample.drv`, served by `cups-driverd` without a daemon) and `cupsfilter`
 * running the whole filter chain (cups-filters' pdftopdf / imagetopdf / gstoraster, then CUPS's
 * `rastertolabel`). The same chain stopped before `rastertolabel` gives the CUPS raster the
 * driver turns into printer commands: the picture the label must show.
 *
 * Debian packages: `cups` (cupsfilter, cups-driverd, rastertolabel) and `cups-filters`
 * (.ci/run installs them).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type ZebraDriver = 'zpl' | 'epl2';

const PPD_NAMES: Record<ZebraDriver, string> = { zpl: 'zebra.ppd', epl2: 'zebraep2.ppd' };
const CUPSFILTER = '/usr/sbin/cupsfilter';
const DRIVERD = '/usr/lib/cups/daemon/cups-driverd';

let dir: string | null = null;
const ppds = new Map<ZebraDriver, string>();

function workDir(): string {
  return (dir ??= mkdtempSync(join(tmpdir(), 'slipstream-cups-')));
}

function run(file: string, args: string[], input?: Uint8Array): Buffer {
  try {
    return execFileSync(file, args, { input, maxBuffer: 256 * 1024 * 1024, stdio: ['pipe', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: Buffer };
    if (err.code === 'ENOENT') throw new Error(`${file} is missing: \`apt-get install cups cups-filters\` (.ci/run installs them)`);
    throw new Error(`${file} ${args.join(' ')}: ${err.stderr?.toString().split('\n').filter((l) => /ERROR|rror/.test(l)).join('; ') || err.message}`);
  }
}

/** The PPD file of CUPS's Zebra driver, written once per run. */
export function zebraPpd(driver: ZebraDriver): string {
  let path = ppds.get(driver);
  if (!path) {
    path = join(workDir(), PPD_NAMES[driver]);
    writeFileSync(path, run(DRIVERD, ['cat', `drv:///sample.drv/${PPD_NAMES[driver]}`]));
    ppds.set(driver, path);
  }
  return path;
}

export interface PrintOptions {
  driver: ZebraDriver;
  dpi: 203 | 300;
  /** PPD page size, e.g. w288h432 (4 x 6 in). */
  pageSize: string;
  copies?: number;
}

let inputs = 0;

function filter(document: Uint8Array, name: string, o: PrintOptions, mime: string): Buffer {
  const file = join(workDir(), `${inputs++}-${name}`);
  writeFileSync(file, document);
  const args = ['-e', '-p', zebraPpd(o.driver), '-m', mime, '-o', `PageSize=${o.pageSize}`, '-o', `media=${o.pageSize}`, '-o', `Resolution=${o.dpi}dpi`];
  if (o.copies && o.copies > 1) args.push('-n', String(o.copies));
  return run(CUPSFILTER, [...args, file]);
}

/** What CUPS sends the printer for this document (PDF or PNG, by its file name). */
export function printerBytes(document: Uint8Array, name: string, o: PrintOptions): Uint8Array {
  return new Uint8Array(filter(document, name, o, 'printer/foo'));
}

export interface RasterPage {
  width: number;
  height: number;
  /** 1 = black dot, row-major. */
  black: Uint8Array;
}

/**
 * The CUPS raster pages the driver receives (sync word "3SaR": version 3, uncompressed): a
 * 1796-byte header per page (cupsWidth at byte 372, cupsHeight 376, cupsBitsPerPixel 388,
 * cupsBytesPerLine 392, cupsColorSpace 400), then the rows. Colour space 3 (black) at one bit:
 * a set bit is a black dot.
 */
export function rasterPages(document: Uint8Array, name: string, o: PrintOptions): RasterPage[] {
  const buf = filter(document, name, o, 'application/vnd.cups-raster');
  const sync = buf.toString('latin1', 0, 4);
  if (sync !== '3SaR') throw new Error(`unexpected CUPS raster sync word ${JSON.stringify(sync)}`);
  const pages: RasterPage[] = [];
  let at = 4;
  while (at + 1796 <= buf.length) {
    const width = buf.readUInt32LE(at + 372), height = buf.readUInt32LE(at + 376);
    const bits = buf.readUInt32LE(at + 388), stride = buf.readUInt32LE(at + 392), space = buf.readUInt32LE(at + 400);
    if (bits !== 1 || space !== 3) throw new Error(`CUPS raster of ${bits} bits per pixel in colour space ${space}: expected 1-bit black`);
    at += 1796;
    const black = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) if (buf[at + y * stride + (x >> 3)] & (0x80 >> (x & 7))) black[y * width + x] = 1;
    }
    at += stride * height;
    pages.push({ width, height, black });
  }
  return pages;
}
