import type { Transport } from '../../shared/transports.ts';
import type { Canvas, CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { OTHER, type ElementKind } from '../../engines/canvas/element-kinds.ts';
import { CompactBodyWriter } from './compact-body.ts';
import { DtoJsonWriter, jsonText } from './dto-json.ts';

/**
 * A stored document built in one pass over the engine's elements, its printed text gathered on
 * the way. The body at rest is the compact body (compact-body.ts: the lean DTO's values,
 * nothing a reader can derive). The DTO's JSON (dto-json.ts, written from the elements) is made
 * in the same pass when someone waits for it (a canvas stream subscriber, a `documents/next`
 * waiter), else only if a reader asks for it after all. Bodies stored before as the DTO's JSON
 * itself read back as they were (document-store.ts `documentJson`).
 *
 * `pause` is awaited every `ELEMENTS_PER_STEP` elements: every Durable Object of `wrangler dev`
 * shares one thread, so building a 20,000-element document lets others in between.
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
  /** The body at rest (before gzip): the compact body (compact-body.ts). */
  body: Uint8Array;
  /** The RenderedDocumentDto JSON as UTF-8 (what a canvas stream subscriber is sent), made when first asked for if not made in the pass. */
  jsonUtf8: () => Uint8Array;
  /** The RenderedDocumentDto JSON (`documents/next`), decoded from `jsonUtf8` when first asked for. */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

/**
 * Elements [from, to) of a canvas into the compact body and the printed text; `kinds`: what
 * the engine said of their keys, if it did (canvas/element-kinds.ts).
 */
function gather(
  items: readonly CanvasElement[], kinds: readonly ElementKind[] | null, from: number, to: number, writer: CompactBodyWriter, lines: CanvasTextLines,
): void {
  for (let i = from; i < to; i++) {
    const el = items[i];
    writer.add(el, kinds === null ? OTHER : kinds[i]);
    if (el.type === 'text') lines.add(el);
  }
}

/**
 * Elements [from, to) of a canvas into the DTO's JSON: a loop of its own after `gather`'s (one
 * loop feeding both writers measured ~30 us slower a receipt: neither writer's work stayed inlined).
 */
function writeJson(items: readonly CanvasElement[], kinds: readonly ElementKind[] | null, from: number, to: number, json: DtoJsonWriter): void {
  for (let i = from; i < to; i++) json.add(items[i], kinds === null ? OTHER : kinds[i]);
}

/** When the DTO's JSON is made: `now` (someone waits for it), or when a reader asks (`later`). */
export type JsonWhen = 'later' | 'now';

/**
 * `raw` is the job's bytes as stored with the document (debug elements whose commandRaw is
 * their bytes there are stored by reference: compact-body.ts). `kinds`: the job's
 * `elementKinds`, what the engine said of its elements' keys.
 */
export async function buildDocument(
  head: DocumentHead,
  canvases: readonly Canvas[],
  tail: DocumentTail,
  mediaOf: (png: Uint8Array) => MediaRef,
  raw: Uint8Array,
  pause?: () => Promise<void>,
  jsonWhen: JsonWhen = 'later',
  kinds?: RenderedJob['elementKinds'],
): Promise<BuiltDocument> {
  const media = new Map<Uint8Array, MediaRef>();
  const mediaRef = (png: Uint8Array): MediaRef => {
    let m = media.get(png);
    if (m === undefined) media.set(png, (m = mediaOf(png)));
    return m;
  };
  const writer = new CompactBodyWriter(raw, mediaRef);
  const jsonWriter = jsonWhen === 'now' ? new DtoJsonWriter(mediaRef, elementCount(canvases)) : null;
  const texts: string[][] = [];
  let made = 0;
  for (let c = 0; c < canvases.length; c++) {
    const canvas = canvases[c];
    const items = canvas.items;
    const itemKinds = kindsOf(kinds, c, items.length);
    const lines = new CanvasTextLines();
    writer.startCanvas(canvas.widthInDots, canvas.heightInDots);
    jsonWriter?.startCanvas(canvas.widthInDots, canvas.heightInDots);
    // A step at a time: the elements' walk is a plain loop, the awaits are between steps.
    for (let from = 0; from < items.length; ) {
      const to = Math.min(items.length, from + ELEMENTS_PER_STEP - (made % ELEMENTS_PER_STEP));
      gather(items, itemKinds, from, to, writer, lines);
      if (jsonWriter) writeJson(items, itemKinds, from, to, jsonWriter);
      made += to - from;
      from = to;
      if (pause && made % ELEMENTS_PER_STEP === 0) await pause();
    }
    jsonWriter?.endCanvas();
    texts.push(lines.lines());
  }
  let utf8 = jsonWriter?.finish(head, tail) ?? null;
  // For a reader after all: written from the elements, as it would have been in the pass.
  const jsonUtf8 = () => (utf8 ??= dtoJson(head, canvases, tail, mediaRef, kinds));
  let json: string | null = null;
  return {
    body: writer.finish(head, tail),
    jsonUtf8,
    json: () => (json ??= jsonText(jsonUtf8())),
    text: joinCanvasTexts(texts),
  };
}

/** What the engine said of canvas `c`'s elements' keys, while it says it of each of them. */
function kindsOf(kinds: RenderedJob['elementKinds'], c: number, count: number): readonly ElementKind[] | null {
  const canvasKinds = kinds?.[c];
  return canvasKinds?.length === count ? canvasKinds : null;
}

function elementCount(canvases: readonly Canvas[]): number {
  return canvases.reduce((n, c) => n + c.items.length, 0);
}

/** The DTO's JSON of a finished job's elements, in one go. */
function dtoJson(head: DocumentHead, canvases: readonly Canvas[], tail: DocumentTail, mediaOf: (png: Uint8Array) => MediaRef, kinds: RenderedJob['elementKinds']): Uint8Array {
  const w = new DtoJsonWriter(mediaOf, elementCount(canvases));
  for (let c = 0; c < canvases.length; c++) {
    const items = canvases[c].items;
    const itemKinds = kindsOf(kinds, c, items.length);
    w.startCanvas(canvases[c].widthInDots, canvases[c].heightInDots);
    writeJson(items, itemKinds, 0, items.length, w);
    w.endCanvas();
  }
  return w.finish(head, tail);
}
