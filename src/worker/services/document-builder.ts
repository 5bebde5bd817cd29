import type { Transport } from '../../shared/transports.ts';
import type { Canvas, CanvasElement } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { leanElement } from './lean-document.ts';
import { PACKED_MARK, type PackedCanvas } from './packed-document.ts';

/**
 * A stored document built in one pass over the engine's elements: each element is made lean
 * once (lean-document.ts), becomes a row of the packed body (packed-document.ts: rows of values
 * under a table of key lists) and an item of the RenderedDocumentDto the streams send, and its
 * printed text is gathered on the way. The packed body is serialised once; the DTO's JSON only
 * when a reader asks for it.
 *
 * `pause` is awaited every `ELEMENTS_PER_STEP` elements: every Durable Object of `wrangler dev`
 * shares one thread, so building a 20,000-element document lets other printers in between.
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
  /** The body at rest (before gzip). */
  packed: string;
  /** The RenderedDocumentDto JSON (streams, `documents/next`), serialised when first asked for. */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

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

export async function buildDocument(
  head: DocumentHead,
  canvases: readonly Canvas[],
  tail: DocumentTail,
  mediaOf: (png: Uint8Array) => MediaRef,
  pause?: () => Promise<void>,
): Promise<BuiltDocument> {
  const media = new Map<Uint8Array, MediaRef>();
  const mediaRef = (png: Uint8Array): MediaRef => {
    let m = media.get(png);
    if (m === undefined) media.set(png, (m = mediaOf(png)));
    return m;
  };
  const packedCanvases: PackedCanvas[] = [];
  const leanCanvases: { widthInDots: number; heightInDots?: number; items: object[] }[] = [];
  const texts: string[][] = [];
  const keys: string[] = [];
  let sinceStep = 0;
  for (const canvas of canvases) {
    const lines = new CanvasTextLines();
    const shapes = new Shapes();
    const rows: unknown[][] = new Array(canvas.items.length);
    const items: object[] = new Array(canvas.items.length);
    for (let i = 0; i < canvas.items.length; i++) {
      if (pause && ++sinceStep >= ELEMENTS_PER_STEP) {
        sinceStep = 0;
        await pause();
      }
      const el = canvas.items[i];
      const lean = leanDocumentElement(el, mediaRef) as unknown as Record<string, unknown>;
      const row: unknown[] = [0];
      let n = 0;
      for (const k in lean) {
        const v = lean[k];
        if (v === undefined) continue;
        keys[n++] = k;
        row.push(v);
      }
      row[0] = shapes.idOf(el.type, keys, n);
      rows[i] = row;
      items[i] = lean;
      if (el.type === 'text') lines.add(el);
    }
    const size = { widthInDots: canvas.widthInDots, ...(canvas.heightInDots != null && { heightInDots: canvas.heightInDots }) };
    packedCanvases.push({ ...size, shapes: shapes.list, items: rows });
    leanCanvases.push({ ...size, items });
    texts.push(lines.lines());
  }
  // Serialised a step of rows at a time (a 100,000-element body is ~13 MB of JSON).
  const parts: string[] = [`${PACKED_MARK}"doc":${JSON.stringify(head).slice(0, -1)},"canvases":[`];
  for (let c = 0; c < packedCanvases.length; c++) {
    const { items: rows, ...rest } = packedCanvases[c];
    parts.push(`${c ? ',' : ''}${JSON.stringify(rest).slice(0, -1)},"items":[`);
    for (let i = 0; i < rows.length; i += ELEMENTS_PER_STEP) {
      if (pause && i > 0) await pause();
      parts.push(`${i ? ',' : ''}${JSON.stringify(rows.slice(i, i + ELEMENTS_PER_STEP)).slice(1, -1)}`);
    }
    parts.push(']}');
  }
  parts.push(`],${JSON.stringify(tail).slice(1)}}`);
  const packed = parts.join('');
  let json: string | null = null;
  return {
    packed,
    json: () => (json ??= JSON.stringify({ ...head, canvases: leanCanvases, ...tail })),
    text: joinCanvasTexts(texts),
  };
}

/** The element as the document keeps it (lean-document.ts); an image refers to its medium instead of carrying its PNG. */
function leanDocumentElement(el: CanvasElement, mediaRef: (png: Uint8Array) => MediaRef): object {
  if (el.type !== 'image') return leanElement(el);
  const { image, ...rest } = leanElement(el);
  return { ...rest, media: mediaRef(image.png) };
}
