import { XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * A parsed XML element with its children in document order: the request formats printers
 * take over HTTP (Epson ePOS-Print, Star WebPRNT) are sequences whose order is the printout.
 * Namespace prefixes are dropped (`s:Envelope` is `Envelope`): both formats fix their
 * namespaces, and clients spell the prefixes differently.
 */
export interface XmlElement {
  readonly name: string;
  readonly attrs: Readonly<Record<string, string>>;
  /** Child elements and text runs, in order. */
  readonly children: readonly XmlNode[];
}
export type XmlNode = XmlElement | string;

export type XmlParseResult = { ok: true; root: XmlElement } | { ok: false; error: string };

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});

type Raw = Record<string, unknown>;

function convert(raw: Raw): XmlNode | null {
  if ('#text' in raw) return String(raw['#text']);
  const name = Object.keys(raw).find((k) => k !== ':@');
  if (!name || name.startsWith('?') || name === '#comment') return null;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw[':@'] as Raw | undefined) ?? {})) {
    if (k !== 'xmlns' && !k.startsWith('xmlns:')) attrs[k] = String(v);
  }
  const children: XmlNode[] = [];
  for (const c of (raw[name] as Raw[]) ?? []) {
    const node = convert(c);
    if (node !== null) children.push(node);
  }
  return { name, attrs, children };
}

/** Parses one XML document (well-formedness checked first); its single root element. */
export function parseXml(text: string): XmlParseResult {
  const valid = XMLValidator.validate(text);
  if (valid !== true) return { ok: false, error: `${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})` };
  const roots = (parser.parse(text) as Raw[]).map(convert).filter((n): n is XmlElement => n !== null && typeof n !== 'string');
  if (roots.length !== 1) return { ok: false, error: roots.length ? 'more than one root element' : 'no root element' };
  return { ok: true, root: roots[0] };
}

/** The element children of `el`, without text runs (whitespace between elements). */
export function elementsOf(el: XmlElement): XmlElement[] {
  return el.children.filter((c): c is XmlElement => typeof c !== 'string');
}

/** The concatenated text of `el`'s direct text runs. */
export function textOf(el: XmlElement): string {
  return el.children.filter((c): c is string => typeof c === 'string').join('');
}

/** The first descendant (depth first, `el` included) named `name`. */
export function findElement(el: XmlElement, name: string): XmlElement | null {
  if (el.name === name) return el;
  for (const c of elementsOf(el)) {
    const hit = findElement(c, name);
    if (hit) return hit;
  }
  return null;
}

/** Base64 text (whitespace ignored) as bytes; null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  const clean = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(clean) || clean.length % 4 === 1) return null;
  const bin = atob(clean);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Text or an attribute value written into XML. */
export function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot' } as const)[c as '<']};`);
}
