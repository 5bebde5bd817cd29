import type { Transport } from '../../shared/transports.ts';
import type { Canvas, CanvasElement, RenderedJob } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { leanElement } from './lean-document.ts';
import { OTHER, type ElementKind } from '../../engines/canvas/element-kinds.ts';
import { CompactBodyWriter } from './compact-body.ts';

/**
 * A stored document built in one pass over the engine's elements, its printed text gathered on
 * the way. The body at rest is one of two, whichever costs the printer less:
 * - nobody waits for the document: the compact body (compact-body.ts: the lean DTO's values,
 *   nothing a reader can derive), the DTO's JSON made from the engine's elements only if a
 *   reader asks for it after all;
 * - someone waits (a canvas stream subscriber, a `documents/next` waiter): the DTO's JSON,
 *   made for them anyway, is the body too.
 * Both read back as the same DTO JSON (document-store.ts `documentJson`).
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

export interface BuiltDocument<Body extends Uint8Array | string = Uint8Array | string> {
  /** The body at rest (before gzip): the compact body (compact-body.ts), or the DTO's JSON. */
  body: Body;
  /** The RenderedDocumentDto JSON (streams, `documents/next`), made when first asked for. */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

/**
 * Elements [from, to) of a canvas into the compact body (when it is the body) and the printed
 * text; `kinds`: what the engine said of their keys, if it did (canvas/element-kinds.ts).
 */
function gather(
  items: readonly CanvasElement[], kinds: readonly ElementKind[] | null, from: number, to: number, writer: CompactBodyWriter | null, lines: CanvasTextLines,
): void {
  for (let i = from; i < to; i++) {
    const el = items[i];
    writer?.add(el, kinds === null ? OTHER : kinds[i]);
    if (el.type === 'text') lines.add(el);
  }
}

/** The size fields of a canvas as the DTO writes them (no `heightInDots` for continuous paper). */
function canvasSize(c: Canvas): { widthInDots: number; heightInDots?: number } {
  return { widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }) };
}

/** The body's two forms: compact, or the DTO's JSON (someone waits for it: it is made anyway). */
export type BodyForm = 'compact' | 'dto';

/**
 * `raw` is the job's bytes as stored with the document (debug elements whose commandRaw is
 * their bytes there are stored by reference: compact-body.ts). `kinds`: the job's
 * `elementKinds`, what the engine said of its elements' keys.
 */
export async function buildDocument(
  head: DocumentHead, canvases: readonly Canvas[], tail: DocumentTail, mediaOf: (png: Uint8Array) => MediaRef, raw: Uint8Array,
  pause?: () => Promise<void>, form?: 'compact', kinds?: RenderedJob['elementKinds'],
): Promise<BuiltDocument<Uint8Array>>;
export async function buildDocument(
  head: DocumentHead, canvases: readonly Canvas[], tail: DocumentTail, mediaOf: (png: Uint8Array) => MediaRef, raw: Uint8Array,
  pause: (() => Promise<void>) | undefined, form: BodyForm, kinds?: RenderedJob['elementKinds'],
): Promise<BuiltDocument>;
export async function buildDocument(
  head: DocumentHead,
  canvases: readonly Canvas[],
  tail: DocumentTail,
  mediaOf: (png: Uint8Array) => MediaRef,
  raw: Uint8Array,
  pause?: () => Promise<void>,
  form: BodyForm = 'compact',
  kinds?: RenderedJob['elementKinds'],
): Promise<BuiltDocument> {
  const media = new Map<Uint8Array, MediaRef>();
  const mediaRef = (png: Uint8Array): MediaRef => {
    let m = media.get(png);
    if (m === undefined) media.set(png, (m = mediaOf(png)));
    return m;
  };
  const lean = (el: CanvasElement): Record<string, unknown> => {
    if (el.type !== 'image') return leanElement(el) as unknown as Record<string, unknown>;
    const { image, ...rest } = leanElement(el);
    return { ...rest, media: mediaRef(image.png) };
  };
  const writer = form === 'compact' ? new CompactBodyWriter(raw, mediaRef) : null;
  // The DTO's JSON when it is the body: a receipt's few hundred elements in one
  // JSON.stringify at the end, a longer job a step at a time (each step's lean copies dropped
  // once written: the heap stays one step deep).
  const total = canvases.reduce((n, c) => n + c.items.length, 0);
  const parts = !writer && total > ELEMENTS_PER_STEP ? [`${JSON.stringify(head).slice(0, -1)},"canvases":[`] : null;
  const texts: string[][] = [];
  let made = 0;
  for (let c = 0; c < canvases.length; c++) {
    const canvas = canvases[c];
    const items = canvas.items;
    const canvasKinds = kinds?.[c];
    // What the engine said of the elements' keys, while it says it of each of them.
    const itemKinds = canvasKinds?.length === items.length ? canvasKinds : null;
    const lines = new CanvasTextLines();
    writer?.startCanvas(canvas.widthInDots, canvas.heightInDots);
    parts?.push(`${c ? ',' : ''}${JSON.stringify(canvasSize(canvas)).slice(0, -1)},"items":[`);
    let written = false;
    // A step at a time: the elements' walk is a plain loop, the awaits are between steps.
    for (let from = 0; from < items.length; ) {
      const to = Math.min(items.length, from + ELEMENTS_PER_STEP - (made % ELEMENTS_PER_STEP));
      gather(items, itemKinds, from, to, writer, lines);
      if (parts) {
        parts.push(`${written ? ',' : ''}${JSON.stringify(items.slice(from, to).map(lean)).slice(1, -1)}`);
        written = true;
      }
      made += to - from;
      from = to;
      if (pause && made % ELEMENTS_PER_STEP === 0) await pause();
    }
    parts?.push(']}');
    texts.push(lines.lines());
  }
  parts?.push(`],${JSON.stringify(tail).slice(1)}`);
  // In one go: the body of an awaited receipt, or for a reader after a compact body (a webhook).
  const dto = () => JSON.stringify({ ...head, canvases: canvases.map((c) => ({ ...canvasSize(c), items: c.items.map(lean) })), ...tail });
  let json: string | null = writer ? null : parts ? parts.join('') : dto();
  return {
    body: writer ? writer.finish(head, tail) : json!,
    json: () => (json ??= dto()),
    text: joinCanvasTexts(texts),
  };
}
