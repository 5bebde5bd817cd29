/**
 * Epson Server Direct Print as a TM printer speaks it (Epson's "TM-i / TM-T88VI Server Direct
 * Print" user's manual): the `GetRequest` form post, the server's `<PrintRequestInfo>` with one
 * `<ePOSPrint>` per job (`<Parameter>` devid, timeout, printjobid; `<PrintData>` holding an
 * `<epos-print>` document, as XML or escaped as text), and the `SetResponse` form post whose
 * `ResponseFile` is a `<PrintResponseInfo>` with each job's `<response>`. Pure: the poller does
 * the HTTP; the ePOS-Print documents go through the ePOS-Print translator (src/engines/epos-print)
 * that the printer's HTTP endpoint uses.
 */
import { EPOS_PRINT_NAMESPACE, eposResult, translateEposPrint, type EposPrinterState, type EposResult } from '../../../engines/epos-print/index.ts';
import { eposElementToEscPos, EposSchemaError } from '../../../engines/epos-print/translate.ts';
import { elementsOf, escapeXml, findElement, parseXml, textOf } from '../../../engines/xml/tree.ts';

/** The form the printer posts: `ConnectionType`, its `ID` and `Name` (and `ResponseFile` with SetResponse). */
export function getRequestForm(id: string, name: string): URLSearchParams {
  return new URLSearchParams({ ConnectionType: 'GetRequest', ID: id, Name: name });
}

export interface SdpJob {
  devid: string;
  printjobid: string | null;
  /** The `<epos-print>` document as the server sent it (stored as the document's raw bytes). */
  document: string;
  /** ESC/POS for the printer's engine, or why the document cannot print (a SchemaError answer). */
  translation: { ok: true; bytes: Uint8Array } | { ok: false; error: string };
}

/** The jobs of a `<PrintRequestInfo>`; an empty body or one without jobs: none. An error for anything that is not one. */
export function parsePrintRequestInfo(text: string): { ok: true; jobs: SdpJob[] } | { ok: false; error: string } {
  if (text.trim() === '') return { ok: true, jobs: [] };
  const parsed = parseXml(text);
  if (!parsed.ok) return { ok: false, error: `The server's answer is not XML: ${parsed.error}` };
  if (parsed.root.name !== 'PrintRequestInfo') return { ok: false, error: `The server's answer is <${parsed.root.name}>, not <PrintRequestInfo>` };
  // The raw `<PrintData>` contents in order, for documents sent as XML (kept as the server wrote them).
  const rawBlocks = [...text.matchAll(/<(?:\w+:)?PrintData\b[^>]*>([\s\S]*?)<\/(?:\w+:)?PrintData>/g)].map((m) => m[1]);
  const jobs = elementsOf(parsed.root).filter((e) => e.name === 'ePOSPrint').map((ep, i): SdpJob => {
    const param = findElement(ep, 'Parameter');
    const field = (n: string) => { const el = param && findElement(param, n); return el ? textOf(el).trim() : null; };
    const data = findElement(ep, 'PrintData');
    const asXml = data ? elementsOf(data).find((e) => e.name === 'epos-print') : undefined;
    let document = '';
    let translation: SdpJob['translation'];
    if (asXml) {
      document = rawBlocks[i]?.trim() ?? '';
      try {
        translation = { ok: true, bytes: eposElementToEscPos(asXml) };
      } catch (e) {
        if (!(e instanceof EposSchemaError)) throw e;
        translation = { ok: false, error: `ePOS-Print schema error: ${e.message}` };
      }
    } else {
      document = data ? textOf(data).trim() : '';
      const t = document ? translateEposPrint(document) : { ok: false as const, error: 'The job has no <PrintData> document' };
      translation = t.ok ? { ok: true, bytes: t.bytes } : { ok: false, error: t.error };
    }
    return { devid: field('devid') || 'local_printer', printjobid: field('printjobid') || null, document, translation };
  });
  return { ok: true, jobs };
}


/** Each job's answer: printed, or the ePOS-Print code of what kept it from printing (eposResult). */
export function jobResult(job: SdpJob, state: EposPrinterState): EposResult {
  return eposResult(state, !job.translation.ok);
}

/** The `ResponseFile` of the SetResponse post: one `<ePOSPrint>` per job, in the request's order. */
export function printResponseInfo(results: { job: SdpJob; result: EposResult }[]): string {
  return '<?xml version="1.0" encoding="utf-8"?><PrintResponseInfo Version="2.00">'
    + results.map(({ job, result }) => '<ePOSPrint><Parameter>'
      + `<devid>${escapeXml(job.devid)}</devid>`
      + (job.printjobid !== null ? `<printjobid>${escapeXml(job.printjobid)}</printjobid>` : '')
      + '</Parameter><PrintResponse>'
      + `<response success="${result.success}" code="${escapeXml(result.code)}" status="${result.status}" battery="0" xmlns="${EPOS_PRINT_NAMESPACE}"/>`
      + '</PrintResponse></ePOSPrint>').join('')
    + '</PrintResponseInfo>';
}

export function setResponseForm(id: string, name: string, responseFile: string): URLSearchParams {
  return new URLSearchParams({ ConnectionType: 'SetResponse', ID: id, Name: name, ResponseFile: responseFile });
}
