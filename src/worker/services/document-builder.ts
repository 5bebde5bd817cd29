import type { Canvas, CanvasElement } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { COMMAND_RAW_MAX_BYTES } from './lean-document.ts';
import { PACKED_MARK, unpackCanvas, type PackedCanvas } from './packed-document.ts';

/**
 * A stored document built in one pass over the engine's elements: each element's values are
 * serialised once and written both into the packed body (packed-document.ts: rows of values
 * under a table of key lists) and into the RenderedDocumentDto JSON the streams send, while
 * its printed text is gathered. The lean rules (lean-document.ts) are applied on the way, so no
 * intermediate copy of an element and no DTO object tree is made.
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
  /** The RenderedDocumentDto JSON (streams, `documents/next`), made from the packed rows when first asked for. */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

const EMPTY: readonly string[] = Object.freeze([]);

function isEmpty(o: object): boolean {
  for (const _ in o) return false;
  return true;
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
  const texts: string[][] = [];
  const keys: string[] = [];
  let sinceStep = 0;
  for (const canvas of canvases) {
    const lines = new CanvasTextLines();
    const shapes = new Shapes();
    const items: unknown[][] = new Array(canvas.items.length);
    for (let i = 0; i < canvas.items.length; i++) {
      if (pause && ++sinceStep >= ELEMENTS_PER_STEP) {
        sinceStep = 0;
        await pause();
      }
      const el = canvas.items[i];
      const row: unknown[] = [0];
      const n = leanValues(el, keys, row, mediaRef);
      row[0] = shapes.idOf(el.type, keys, n);
      items[i] = row;
      if (el.type === 'text') lines.add(el);
    }
    packedCanvases.push({ widthInDots: canvas.widthInDots, ...(canvas.heightInDots != null && { heightInDots: canvas.heightInDots }), shapes: shapes.list, items });
    texts.push(lines.lines());
  }
  const packed = `${PACKED_MARK}"doc":${JSON.stringify({ ...head, canvases: packedCanvases, ...tail })}}`;
  let json: string | null = null;
  return {
    packed,
    json: () => (json ??= JSON.stringify({ ...head, canvases: packedCanvases.map(unpackCanvas), ...tail })),
    text: joinCanvasTexts(texts),
  };
}

/**
 * Appends the element's values as the document keeps them (lean-document.ts) to `row` and
 * writes their keys into `keys`; returns how many.
 */
function leanValues(el: CanvasElement, keys: string[], row: unknown[], mediaRef: (png: Uint8Array) => MediaRef): number {
  const o = el as unknown as Record<string, unknown>;
  const debug = el.type === 'debug';
  let truncated = false;
  let n = 0;
  for (const k in o) {
    let v = o[k];
    if (v === undefined) continue;
    if (k === 'commandRaw') {
      if (!debug) v = '';
      else if ((v as string).length > COMMAND_RAW_MAX_BYTES * 2) {
        v = (v as string).slice(0, COMMAND_RAW_MAX_BYTES * 2);
        truncated = true;
      }
    } else if (k === 'commandDescription') {
      if (!debug) v = EMPTY;
    } else if (k === 'parameters') {
      if (debug && isEmpty(v as object)) continue;
    } else if (k === 'image' && el.type === 'image') {
      continue;
    }
    keys[n++] = k;
    row.push(v);
  }
  if (truncated && !('commandRawTruncated' in o)) {
    keys[n++] = 'commandRawTruncated';
    row.push(true);
  }
  if (el.type === 'image') {
    keys[n++] = 'media';
    row.push(mediaRef(el.image.png));
  }
  return n;
}
