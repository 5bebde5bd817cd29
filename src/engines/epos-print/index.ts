/**
 * Epson ePOS-Print: the XML a TM printer takes on `/cgi-bin/epos/service.cgi` (and inside
 * Server Direct Print's job lists), translated into the ESC/POS bytes the printer runs, and
 * the answer it sends back. Pure: used by the printer object for HTTP jobs and by anything
 * else that receives ePOS-Print documents.
 */
import { findElement, parseXml, textOf, type XmlElement } from '../xml/tree.ts';
import { eposElementToEscPos, EposSchemaError } from './translate.ts';

export { EPOS_PRINT_NAMESPACE, eposResponseEnvelope, eposStatus, eposResult, type EposResult, type EposPrinterState } from './response.ts';

export type EposTranslation =
  | { ok: true; bytes: Uint8Array; printjobid: string | null }
  | { ok: false; error: string; printjobid: string | null };

/**
 * An ePOS-Print request → ESC/POS bytes. `text` is a SOAP envelope holding `<epos-print>`
 * (what ePOS SDKs post) or a bare `<epos-print>` document; `printjobid` comes from the SOAP
 * header's `<parameter>` when present. Any error is a schema error: nothing is printed.
 */
export function translateEposPrint(text: string): EposTranslation {
  const parsed = parseXml(text);
  if (!parsed.ok) return { ok: false, error: `The ePOS-Print request is not well-formed XML: ${parsed.error}`, printjobid: null };
  const root = parsed.root;
  const header = root.name === 'Envelope' ? findElement(root, 'Header') : null;
  const job = header ? findElement(header, 'printjobid') : null;
  const printjobid = job ? textOf(job).trim() || null : null;
  let doc: XmlElement | null = root;
  if (root.name === 'Envelope') {
    const body = findElement(root, 'Body');
    doc = body ? findElement(body, 'epos-print') : null;
    if (!doc) return { ok: false, error: 'The SOAP envelope holds no <epos-print> in its Body', printjobid };
  }
  try {
    return { ok: true, bytes: eposElementToEscPos(doc), printjobid };
  } catch (e) {
    if (e instanceof EposSchemaError) return { ok: false, error: `ePOS-Print schema error: ${e.message}`, printjobid };
    throw e;
  }
}
