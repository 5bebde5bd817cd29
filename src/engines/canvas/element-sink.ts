import type { CanvasElement } from './model.ts';
import type { ElementKind } from './element-kinds.ts';

/**
 * A taker of a job's elements as they become final (nothing changes them any more), so that a
 * long job's elements need not all stay alive until it ends. Canvases come in order, each one's
 * elements in order, in one or more `elements` calls, then its `closeCanvas`. A job that
 * never outgrows a batch gives nothing (its finished canvases keep their elements); one that
 * does gives all.
 */
export interface ElementSink {
  /** Final elements of canvas `canvas` (0-based), `kinds` one per element (canvas/element-kinds.ts). */
  elements(canvas: number, widthInDots: number, items: readonly CanvasElement[], kinds: readonly ElementKind[]): void;
  /** Canvas `canvas` has all its elements and its height (null: continuous paper). */
  closeCanvas(canvas: number, widthInDots: number, heightInDots: number | null): void;
}
