import { readFile, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { createParser } from 'eventsource-parser';
import { CliError, EXIT, findPrinter, responseError, type Session } from './client.ts';

/**
 * The `slipstream` commands (extensions.md "Documents outside the browser"). Each returns its
 * exit code: 0 found / done, 1 timed out, 2 error (thrown CliError, handled in main.ts).
 * Results go to stdout (or -o FILE); progress and messages to stderr.
 */
export interface Io {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Whether stderr is a terminal (progress redraws in place) or a log (a line now and then). */
  isTty: boolean;
}

export const FORMATS = ['json', 'png', 'pdf', 'text', 'raw'] as const;
export type Format = (typeof FORMATS)[number];

export interface DocumentDto {
  id: string;
  printerId: string;
  timestamp: string;
  bytesReceived: number;
}

export async function loginCommand(session: Session, io: Io): Promise<number> {
  io.stderr(`Logged in to workspace "${session.workspace.name}" (${session.workspace.id}) at ${session.url}\n`);
  io.stdout(`${session.accessToken}\n`);
  return EXIT.found;
}

export async function printersCommand(session: Session, io: Io, o: { json: boolean }): Promise<number> {
  const printers = await session.json<{ printer: { id: string; displayName: string }; settings: Record<string, unknown> }[]>('/api/printers');
  if (o.json) {
    io.stdout(`${JSON.stringify(printers, null, 2)}\n`);
    return EXIT.found;
  }
  for (const p of printers) {
    io.stdout(`${p.printer.id}\t${p.settings.protocol}\t${p.settings.tcpListenPort ?? '-'}\t${p.printer.displayName}\n`);
  }
  return EXIT.found;
}

/** The newest non-poll document id of a printer (the `after` cursor for what comes next), or null. */
async function newestDocumentId(session: Session, printerId: string): Promise<string | null> {
  const page = await session.json<{ result: { items?: DocumentDto[] } }>(`/api/printers/${printerId}/documents/canvas?Limit=1`);
  return page.result.items?.[0]?.id ?? null;
}

/**
 * Prints a file: by default through the import endpoint (works wherever the API does), with
 * `--tcp` as raw bytes to the printer's TCP port; then waits for the document and prints its id.
 */
export async function printCommand(session: Session, io: Io, o: { file: string; printer: string; tcp: boolean; timeoutSeconds: number }): Promise<number> {
  const bytes = await readFile(o.file).catch((e: Error) => {
    throw new CliError(`Cannot read ${o.file}: ${e.message}`);
  });
  if (bytes.length === 0) throw new CliError(`${o.file} is empty: an empty job prints nothing`);
  const printer = await findPrinter(session, o.printer);
  const id = printer.printer.id;
  const after = await newestDocumentId(session, id);
  if (o.tcp) {
    const port = printer.settings.tcpListenPort;
    if (!port) throw new CliError(`Printer ${printer.printer.displayName} has no TCP port`);
    const host = new URL(session.url).hostname;
    await sendTcp(host, port, bytes);
  } else {
    const res = await session.request(`/api/printers/${id}/documents/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: bytes.toString('base64'), format: 'Base64' }),
    });
    if (!res.ok) throw await responseError(res, 'Printing failed');
  }
  // A printer that had no document has no `after` cursor: its first document is the one.
  const doc = await waitForDocument(session, io, id, after, o.timeoutSeconds, printer.printer.displayName, after === null);
  if (!doc) {
    io.stderr(`The document did not appear within ${o.timeoutSeconds} s\n`);
    return EXIT.timedOut;
  }
  io.stdout(`${doc.id}\n`);
  return EXIT.found;
}

function sendTcp(host: string, port: number, bytes: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.end(bytes));
    socket.on('error', (e) => reject(new CliError(`Cannot print to ${host}:${port}: ${e.message}`)));
    socket.on('close', () => resolve());
    socket.resume(); // status replies are read and dropped
  });
}

/**
 * The first document after `after` (after now without one), asking `documents/next` in rounds
 * of at most 60 s until `timeoutSeconds` pass; progress on stderr. Null on timeout.
 * `firstEver`: the printer had no documents, so any document it has now is the one (checked
 * between short rounds, since one may have been stored before a round began).
 */
export async function waitForDocument(
  session: Session, io: Io, printerId: string, after: string | null, timeoutSeconds: number, name: string, firstEver = false,
): Promise<DocumentDto | null> {
  const deadline = Date.now() + timeoutSeconds * 1000;
  const started = Date.now();
  const progress = setInterval(() => {
    const s = Math.round((Date.now() - started) / 1000);
    const line = `Waiting for a document on ${name}: ${s} s of ${timeoutSeconds} s`;
    io.stderr(io.isTty ? `\r${line}` : `${line}\n`);
  }, io.isTty ? 1000 : 10_000);
  try {
    for (;;) {
      if (firstEver && after === null) {
        const page = await session.json<{ result: { items?: DocumentDto[] } }>(`/api/printers/${printerId}/documents/canvas?Limit=1`);
        const first = page.result.items?.[0];
        if (first) return first;
      }
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      const q = new URLSearchParams({ timeoutSeconds: String(Math.min(firstEver ? 2 : 60, left)) });
      if (after) q.set('after', after);
      const res = await session.request(`/api/printers/${printerId}/documents/next?${q}`);
      if (res.status === 200) return (await res.json()) as DocumentDto;
      if (res.status !== 204) throw await responseError(res, 'Waiting failed');
      await res.body?.cancel();
      if (Date.now() >= deadline) return null;
    }
  } finally {
    clearInterval(progress);
    if (io.isTty && Date.now() - started >= 1000) io.stderr('\n');
  }
}

export async function waitCommand(
  session: Session, io: Io,
  o: { printer: string; after?: string; timeoutSeconds: number; format?: Format; output?: string },
): Promise<number> {
  const printer = await findPrinter(session, o.printer);
  const doc = await waitForDocument(session, io, printer.printer.id, o.after ?? null, o.timeoutSeconds, printer.printer.displayName);
  if (!doc) {
    io.stderr(`No document on ${printer.printer.displayName} within ${o.timeoutSeconds} s\n`);
    return EXIT.timedOut;
  }
  if (!o.format) {
    io.stdout(`${doc.id}\n`);
    return EXIT.found;
  }
  await writeForm(session, io, printer.printer.id, doc.id, o.format, o.output);
  return EXIT.found;
}

export async function renderCommand(
  session: Session, io: Io,
  o: { documentId: string; printer?: string; format: Format; output?: string; canvas?: number },
): Promise<number> {
  const printerIds = o.printer
    ? [(await findPrinter(session, o.printer)).printer.id]
    : (await session.json<{ printer: { id: string } }[]>('/api/printers')).map((p) => p.printer.id);
  for (const printerId of printerIds) {
    const found = await writeForm(session, io, printerId, o.documentId, o.format, o.output, o.canvas, true);
    if (found) return EXIT.found;
  }
  throw new CliError(`No document ${o.documentId} in workspace ${session.workspace.name}`);
}

/** Writes one form of a document to `output` (stdout without; binary forms need a file). False for 404 when `missingOk`. */
async function writeForm(session: Session, io: Io, printerId: string, documentId: string, format: Format, output?: string, canvas?: number, missingOk = false): Promise<boolean> {
  if (!output && (format === 'png' || format === 'pdf' || format === 'raw')) throw new CliError(`--format ${format} writes binary data: give -o FILE`);
  const bytes = await documentForm(session, printerId, documentId, format, canvas, missingOk);
  if (!bytes) return false;
  if (output) {
    await writeFile(output, bytes);
    io.stderr(`Wrote ${bytes.length} bytes (${format}) to ${output}\n`);
  } else {
    const text = new TextDecoder().decode(bytes);
    io.stdout(text.endsWith('\n') ? text : `${text}\n`);
  }
  return true;
}

/** One form of a document; null for 404 when `missingOk`. */
export async function documentForm(session: Session, printerId: string, documentId: string, format: Format, canvas?: number, missingOk = false): Promise<Uint8Array | null> {
  const q = new URLSearchParams({ format });
  if (canvas !== undefined) q.set('canvas', String(canvas));
  const res = await session.request(`/api/printers/${printerId}/documents/${encodeURIComponent(documentId)}?${q}`);
  if (res.status === 404 && missingOk) {
    await res.body?.cancel();
    return null;
  }
  if (!res.ok) throw await responseError(res, `Rendering ${documentId} failed`);
  return new Uint8Array(await res.arrayBuffer());
}

/** Follows the printer's canvas stream, one line per document, until interrupted (or `--count`). */
export async function tailCommand(session: Session, io: Io, o: { printer: string; format: 'summary' | 'json' | 'text'; count?: number; signal?: AbortSignal }): Promise<number> {
  const printer = await findPrinter(session, o.printer);
  const res = await session.request(`/api/printers/${printer.printer.id}/documents/canvas/stream`, { headers: { accept: 'text/event-stream' }, signal: o.signal });
  if (!res.ok || !res.body) throw await responseError(res, 'Opening the stream failed');
  io.stderr(`Following ${printer.printer.displayName} (Ctrl+C to stop)\n`);
  let seen = 0;
  const pending: Promise<void>[] = [];
  const parser = createParser({
    onEvent: (ev) => {
      if (ev.event !== 'documentCanvasReady') return;
      const doc = JSON.parse(ev.data) as DocumentDto;
      seen++;
      if (o.format === 'json') io.stdout(`${ev.data}\n`);
      else if (o.format === 'text') pending.push(writeForm(session, io, printer.printer.id, doc.id, 'text').then(() => io.stdout('\f\n')));
      else io.stdout(`${doc.timestamp}\t${doc.id}\t${doc.bytesReceived} bytes\n`);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (o.count !== undefined && seen >= o.count) break;
    }
  } catch (e) {
    if (!o.signal?.aborted) throw new CliError(`The stream broke: ${(e as Error).message}`);
  }
  await Promise.all(pending);
  return EXIT.found;
}
