/**
 * `slipstream expect`: takes a printer's next document and checks what it printed. Documents
 * are taken in the order they were printed, each once: the first `expect` of a printer takes
 * its first document (or waits for one), the next `expect` the document after that, and so on
 * (the last one taken is kept per service and printer in STATE/expect-cursors.json), so a CI
 * job can print first and assert afterwards. `--after DOCUMENT_ID` picks the place by hand.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { EXIT, findPrinter, type Session } from './client.ts';
import { documentForm, waitForDocument, type DocumentDto, type Io } from './commands.ts';
import { writeJunit, type CheckResult } from './junit.ts';

export interface ExpectOptions {
  printer: string;
  texts: string[];
  timeoutSeconds: number;
  after?: string;
  stateDir: string;
  junit?: string;
}

const cursorFile = (stateDir: string) => resolve(stateDir, 'expect-cursors.json');

function readCursors(stateDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(cursorFile(stateDir), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function saveCursor(stateDir: string, key: string, documentId: string): void {
  mkdirSync(resolve(stateDir), { recursive: true });
  writeFileSync(cursorFile(stateDir), `${JSON.stringify({ ...readCursors(stateDir), [key]: documentId }, null, 2)}\n`);
}

/** The printer's first document (status polls aside), or null when it has none. */
async function oldestDocument(session: Session, printerId: string): Promise<DocumentDto | null> {
  let oldest: DocumentDto | null = null;
  for (;;) {
    const q = new URLSearchParams({ Limit: '100', IncludeStatusPolls: 'false' });
    if (oldest) q.set('BeforeId', oldest.id);
    const page = await session.json<{ result: { items?: DocumentDto[] } }>(`/api/printers/${printerId}/documents/canvas?${q}`);
    const items = page.result.items ?? [];
    if (items.length) oldest = items[items.length - 1];
    if (items.length < 100) return oldest;
  }
}

/** Receipts pad columns with spaces: "TOTAL 15.93" matches "TOTAL      15.93". */
const collapse = (text: string) => text.replace(/[ \t]+/g, ' ');

export async function expectCommand(session: Session, io: Io, o: ExpectOptions): Promise<number> {
  const started = Date.now();
  const printer = await findPrinter(session, o.printer);
  const name = printer.printer.displayName;
  const key = `${session.url} ${printer.printer.id}`;
  const after = o.after ?? readCursors(o.stateDir)[key] ?? null;
  const doc = after === null
    ? (await oldestDocument(session, printer.printer.id)) ?? (await waitForDocument(session, io, printer.printer.id, null, o.timeoutSeconds, name, true))
    : await waitForDocument(session, io, printer.printer.id, after, o.timeoutSeconds, name);

  let checks: CheckResult[];
  if (!doc) {
    const failure = `no document on ${name} within ${o.timeoutSeconds} s`;
    checks = (o.texts.length ? o.texts.map((t) => `prints "${t}"`) : ['prints a document']).map((n) => ({ name: n, failure }));
  } else {
    saveCursor(o.stateDir, key, doc.id);
    const text = new TextDecoder().decode((await documentForm(session, printer.printer.id, doc.id, 'text'))!);
    const output = `document ${doc.id} (${doc.timestamp}) printed:\n${text}`;
    checks = o.texts.length
      ? o.texts.map((t) => ({ name: `prints "${t}"`, output, ...(collapse(text).includes(collapse(t)) ? {} : { failure: `document ${doc.id} does not contain "${t}"` }) }))
      : [{ name: 'prints a document', output }];
    io.stdout(`${doc.id}\n`);
  }
  const failed = checks.filter((c) => c.failure !== undefined);
  for (const c of checks) io.stderr(`${c.failure === undefined ? 'ok  ' : 'FAIL'}  ${name}: ${c.failure ?? c.name}\n`);
  if (doc && failed.length) io.stderr(`${checks[0].output}\n`);
  if (o.junit) writeJunit(o.junit, 'slipstream expect', name, (Date.now() - started) / 1000, checks);
  return failed.length ? EXIT.failed : EXIT.found;
}
