import type { CanvasElement } from '../../engines/canvas/model.ts';
import type { ElementKind } from '../../engines/canvas/element-kinds.ts';
import type { ElementSink } from '../../engines/canvas/element-sink.ts';
import { CanvasTextLines, joinCanvasTexts } from '../../engines/render/index.ts';
import { CompactBodyWriter } from './compact-body.ts';
import type { DocumentHead, DocumentTail, MediaRef } from './document-builder.ts';

/**
 * The compact body and printed text of a job written while the engine renders it: the engine's
 * job document gives its elements here as they become final (engines/canvas/element-sink.ts),
 * once it outgrows a batch, so a long job's elements die young instead of all living until it
 * ends. The same bytes as `buildDocument`'s compact body of the whole job.
 */
export class StreamedDocument implements ElementSink {
  private readonly writer: CompactBodyWriter;
  private readonly texts: string[][] = [];
  private lines: CanvasTextLines | null = null;
  /** The canvas being written, -1 before the first. */
  private canvas = -1;

  /**
   * `rawSoFar`: the job's raw bytes as stored with the document, as far as they have come (asked
   * before each batch: elements are given after their bytes arrived).
   */
  constructor(private readonly rawSoFar: () => Uint8Array, mediaOf: (png: Uint8Array) => MediaRef) {
    this.writer = new CompactBodyWriter(new Uint8Array(0), mediaOf);
  }

  /** The engine gave elements: the body is written here (a job that never outgrew a batch gave none). */
  get started(): boolean {
    return this.canvas >= 0;
  }

  private open(canvas: number, widthInDots: number): CanvasTextLines {
    if (canvas !== this.canvas) {
      this.canvas = canvas;
      this.writer.startCanvas(widthInDots, null);
      this.lines = new CanvasTextLines();
    }
    return this.lines!;
  }

  elements(canvas: number, widthInDots: number, items: readonly CanvasElement[], kinds: readonly ElementKind[]): void {
    const lines = this.open(canvas, widthInDots);
    const writer = this.writer;
    writer.setRaw(this.rawSoFar());
    for (let i = 0; i < items.length; i++) {
      const el = items[i];
      writer.add(el, kinds[i]);
      if (el.type === 'text') lines.add(el);
    }
  }

  closeCanvas(canvas: number, widthInDots: number, heightInDots: number | null): void {
    const lines = this.open(canvas, widthInDots);
    this.writer.setCanvasHeight(heightInDots);
    this.texts.push(lines.lines());
    this.lines = null;
  }

  /** The body (compact) and the printed text, once the job is finished. */
  finish(head: DocumentHead, tail: DocumentTail): { body: Uint8Array; text: string } {
    return { body: this.writer.finish(head, tail), text: joinCanvasTexts(this.texts) };
  }
}
