import type { Transport } from '../../shared/transports.ts';
import type { Canvas, CanvasElement } from '../../engines/canvas/model.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { leanElement } from './lean-document.ts';
import { CompactBodyWriter } from './compact-body.ts';

/**
 * A stored document built in one pass over the engine's elements: each is written into the
 * compact body (compact-body.ts: the lean DTO's values, nothing a reader can derive) and its
 * printed text gathered on the way. The DTO's JSON is made from the engine's elements only when
 * someone asks for it (a stream subscriber, a `documents/next` waiter); the store keeps the
 * compact body either way, and readers get the same JSON from it.
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
  /** The body at rest (before gzip): compact-body.ts's format 2. */
  body: Uint8Array;
  /** The RenderedDocumentDto JSON (streams, `documents/next`), made when first asked for. */
  json: () => string;
  /** The printed text (renderText of the document). */
  text: string;
}

/** The size fields of a canvas as the DTO writes them (no `heightInDots` for continuous paper). */
function canvasSize(c: Canvas): { widthInDots: number; heightInDots?: number } {
  return { widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }) };
}

/**
 * `raw` is the job's bytes as stored with the document (debug elements whose commandRaw is
 * their bytes there are stored by reference: compact-body.ts).
 */
export async function buildDocument(
  head: DocumentHead,
  canvases: readonly Canvas[],
  tail: DocumentTail,
  mediaOf: (png: Uint8Array) => MediaRef,
  raw: Uint8Array,
  pause?: () => Promise<void>,
): Promise<BuiltDocument> {
  const media = new Map<Uint8Array, MediaRef>();
  const mediaRef = (png: Uint8Array): MediaRef => {
    let m = media.get(png);
    if (m === undefined) media.set(png, (m = mediaOf(png)));
    return m;
  };
  const writer = new CompactBodyWriter(raw, mediaRef);
  const texts: string[][] = [];
  let made = 0;
  for (const canvas of canvases) {
    const lines = new CanvasTextLines();
    writer.startCanvas(canvas.widthInDots, canvas.heightInDots);
    for (const el of canvas.items) {
      writer.add(el);
      if (el.type === 'text') lines.add(el);
      if (pause && ++made % ELEMENTS_PER_STEP === 0) await pause();
    }
    texts.push(lines.lines());
  }
  const lean = (el: CanvasElement): Record<string, unknown> => {
    if (el.type !== 'image') return leanElement(el) as unknown as Record<string, unknown>;
    const { image, ...rest } = leanElement(el);
    return { ...rest, media: mediaRef(image.png) };
  };
  let json: string | null = null;
  return {
    body: writer.finish(head, tail),
    // Sync and in one go: a stream subscriber, a `documents/next` waiter, a webhook.
    json: () => (json ??= JSON.stringify({ ...head, canvases: canvases.map((c) => ({ ...canvasSize(c), items: c.items.map(lean) })), ...tail })),
    text: joinCanvasTexts(texts),
  };
}
