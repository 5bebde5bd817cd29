/**
 * `slipstream compare DOCUMENT --golden FILE.png`: the printout (`?format=png`) against a golden
 * picture (printout-diff.ts), with a diff picture and a 0/1 exit code; `--update` records the
 * printout as the golden instead.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError, EXIT, findPrinter, type Session } from './client.ts';
import { documentForm, type Io } from './commands.ts';
import { writeJunit, type CheckResult } from './junit.ts';
import { comparePrintout, decodePicture, PictureError } from './printout-diff.ts';

export interface CompareOptions {
  documentId: string;
  golden: string;
  /** Percent of the inked dots that may differ. */
  tolerance: number;
  update: boolean;
  /** Where the diff picture goes; default beside the golden, FILE.diff.png. */
  diff?: string;
  printer?: string;
  canvas?: number;
  junit?: string;
}

function write(file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(resolve(file)), { recursive: true });
  writeFileSync(file, bytes);
}

/** The printout and the printer it is on (searched across the workspace without --printer). */
async function printout(session: Session, o: CompareOptions): Promise<{ png: Uint8Array; printerName: string }> {
  const printers = o.printer
    ? [await findPrinter(session, o.printer)]
    : await session.json<{ printer: { id: string; displayName: string } }[]>('/api/printers');
  for (const p of printers) {
    const png = await documentForm(session, p.printer.id, o.documentId, 'png', o.canvas, true);
    if (png) return { png, printerName: p.printer.displayName };
  }
  throw new CliError(`No document ${o.documentId} in workspace ${session.workspace.name}`);
}

export async function compareCommand(session: Session, io: Io, o: CompareOptions): Promise<number> {
  const started = Date.now();
  const { png, printerName } = await printout(session, o);
  if (o.update) {
    write(o.golden, png);
    io.stderr(`Recorded ${o.documentId} as the golden ${o.golden}\n`);
    return EXIT.found;
  }
  const diffFile = o.diff ?? o.golden.replace(/(\.png)?$/i, '.diff.png');
  const name = `${o.documentId} looks like ${o.golden}`;
  let check: CheckResult;
  let goldenBytes: Buffer | null = null;
  try {
    goldenBytes = readFileSync(o.golden);
  } catch (e) {
    check = { name, failure: `golden ${o.golden} cannot be read (${(e as NodeJS.ErrnoException).code}); record it with --update` };
  }
  if (goldenBytes) {
    try {
      const d = comparePrintout(decodePicture(goldenBytes, o.golden), decodePicture(png, `document ${o.documentId}`));
      write(diffFile, d.diffPng);
      const figures = `${d.percent.toFixed(2)}% of ${d.inkedDots} inked dots differ (tolerance ${o.tolerance}%): ${d.missingDots} missing (red), ${d.extraDots} extra (blue), printout moved by (${d.offset.dx}, ${d.offset.dy}) dots to line up; diff ${diffFile}`;
      check = d.percent <= o.tolerance ? { name, output: figures } : { name, failure: figures, attachment: diffFile };
    } catch (e) {
      if (!(e instanceof PictureError)) throw e;
      check = { name, failure: e.message };
    }
  }
  io.stderr(`${check!.failure === undefined ? 'ok  ' : 'FAIL'}  ${printerName}: ${name}: ${check!.failure ?? check!.output}\n`);
  if (o.junit) writeJunit(o.junit, 'slipstream compare', printerName, (Date.now() - started) / 1000, [check!]);
  return check!.failure === undefined ? EXIT.found : EXIT.failed;
}
