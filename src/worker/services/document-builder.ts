import type { Transport } from '../../shared/transports.ts';
import type { Canvas, CanvasElement } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { leanElement } from './lean-document.ts';
import { PACKED_MARK } from './packed-document.ts';

/**
 * A stored document built in one pass over the engine's elements: each element is made lean
 * (lean-document.ts), its printed text gathered on the way, and the whole serialised once (in
 * steps of `ELEMENTS_PER_STEP` elements when longer). The body at rest is one of two JSON
 * texts, whichever the printer needs anyway:
 * - someone is waiting for the document (a canvas stream subscriber, a `documents/next`
 *   waiter): the RenderedDocumentDto's JSON itself, serialised once for them and for the store;
 * - nobody is: the packed body (packed-document.ts: rows of values under a table of key
 *   lists), half the DTO's size, so cheaper to serialise and to compress; the DTO's JSON is
 *   then made from the engine's elements only if a reader asks for it after all.
 *
 * `pause` is awaited between steps of making and of serialising: every Durable Object of
 * `wrangler dev` shares one thread, so building a 20,000-element document lets others in between.
 */
export const ELEMENTS_PER_STEP = 2_000;

/** The DTO's fields before `canvases`, in the contract's order. */
export interface DocumentHead {
  id: string;
  printJobId: string;
  printerId: string;
  timestamp: string;
  protocol: string;
  /** How the document arrived (extensions.md "Transports"). */
  transport: Transport;
  isStatusPoll: boolean;
}

/** The DTO's fields after `canvases`. */
export interface DocumentTail {
  clientAddress: string;
  bytesReceived: number;
  bytesSent: number;
  errorMessages?: string[];
}

/** What an image element refers to instead of carrying its PNG. */
export interface MediaRef {
  contentType: 'image/png';
  size: number;
  url: string;
  storageKey: string;
}

export interface BuiltDocument {
  /** The body at rest (before gzip): the DTO's JSON or its packed form (packed-document.ts). */
  body: string;
  /** The RenderedDocumentDto JSON (streams, `documents/next`). */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

/** The body's two forms: the DTO's JSON, or packed rows. */
export type BodyForm = 'dto' | 'packed';

/** One canvas's shapes (key lists), found by comparing an element's keys with its type's few. */
class Shapes {
  readonly list: string[][] = [];
  private readonly byType = new Map<string, number[]>();

  idOf(type: string, keys: string[], n: number): number {
    let candidates = this.byType.get(type);
    if (!candidates) this.byType.set(type, (candidates = []));
    outer: for (const id of candidates) {
      const s = this.list[id];
      if (s.length !== n) continue;
      for (let i = 0; i < n; i++) if (s[i] !== keys[i]) continue outer;
      return id;
    }
    const id = this.list.length;
    this.list.push(keys.slice(0, n));
    candidates.push(id);
    return id;
  }
}

/** A packed row: the shape's id, then the element's values in its shape's key order. */
function packedRow(lean: Record<string, unknown>, type: string, shapes: Shapes, keys: string[]): unknown[] {
  const row: unknown[] = [0];
  let n = 0;
  for (const k in lean) {
    const v = lean[k];
    if (v === undefined) continue;
    keys[n++] = k;
    row.push(v);
  }
  row[0] = shapes.idOf(type, keys, n);
  return row;
}

/** The size fields of a canvas as the DTO writes them (no `heightInDots` for continuous paper). */
function canvasSize(c: Canvas): { widthInDots: number; heightInDots?: number } {
  return { widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }) };
}

export async function buildDocument(
  head: DocumentHead,
  canvases: readonly Canvas[],
  tail: DocumentTail,
  mediaOf: (png: Uint8Array) => MediaRef,
  pause?: () => Promise<void>,
  form: BodyForm = 'packed',
): Promise<BuiltDocument> {
  const media = new Map<Uint8Array, MediaRef>();
  const lean = (el: CanvasElement): Record<string, unknown> => {
    if (el.type !== 'image') return leanElement(el) as unknown as Record<string, unknown>;
    const { image, ...rest } = leanElement(el);
    let m = media.get(image.png);
    if (m === undefined) media.set(image.png, (m = mediaOf(image.png)));
    return { ...rest, media: m };
  };
  const texts: string[][] = [];
  const keys: string[] = [];
  const total = canvases.reduce((n, c) => n + c.items.length, 0);
  // A receipt's few hundred elements are serialised in one JSON.stringify; a longer job a step
  // at a time, each step's lean copies dropped once written (its heap stays one step deep).
  const atOnce = total <= ELEMENTS_PER_STEP;
  const whole: { widthInDots: number; heightInDots?: number; items: unknown[]; shapes?: string[][] }[] = [];
  const parts: string[] = [];
  if (!atOnce) parts.push(`${form === 'packed' ? `${PACKED_MARK}"doc":` : ''}${JSON.stringify(head).slice(0, -1)},"canvases":[`);
  let made = 0;
  for (let c = 0; c < canvases.length; c++) {
    const canvas = canvases[c];
    const lines = new CanvasTextLines();
    const shapes = new Shapes();
    if (!atOnce) parts.push(`${c ? ',' : ''}${JSON.stringify(canvasSize(canvas)).slice(0, -1)},"items":[`);
    // Filled by push: a holey array would take JSON.stringify off its fast path.
    let items: unknown[] = [];
    let written = false;
    for (let i = 0; i < canvas.items.length; i++) {
      const el = canvas.items[i];
      const l = lean(el);
      items.push(form === 'packed' ? packedRow(l, el.type, shapes, keys) : l);
      if (el.type === 'text') lines.add(el);
      if (++made % ELEMENTS_PER_STEP === 0 || i === canvas.items.length - 1) {
        if (!atOnce) {
          parts.push(`${written ? ',' : ''}${JSON.stringify(items).slice(1, -1)}`);
          items = [];
          written = true;
        }
        if (pause && made % ELEMENTS_PER_STEP === 0) await pause();
      }
    }
    const packedShapes = form === 'packed' ? { shapes: shapes.list } : {};
    if (atOnce) whole.push({ ...canvasSize(canvas), items, ...packedShapes });
    else parts.push(form === 'packed' ? `],"shapes":${JSON.stringify(shapes.list)}}` : ']}');
    texts.push(lines.lines());
  }
  let body: string;
  if (atOnce) {
    const doc = { ...head, canvases: whole, ...tail };
    // A packed body's first key and value are PACKED_MARK's.
    body = JSON.stringify(form === 'packed' ? { packed: 1, doc } : doc);
  } else {
    parts.push(`],${JSON.stringify(tail).slice(1)}${form === 'packed' ? '}' : ''}`);
    body = parts.join('');
  }
  let json: string | null = form === 'dto' ? body : null;
  return {
    body,
    // Sync and in one go: asked for by a reader that came after the document was stored.
    json: () => (json ??= JSON.stringify({ ...head, canvases: canvases.map((c) => ({ ...canvasSize(c), items: c.items.map(lean) })), ...tail })),
    text: joinCanvasTexts(texts),
  };
}
