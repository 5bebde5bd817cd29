import type { Bitmap } from '../raster/bitmap.ts';
import type { MultiByteEncoding, PrinterModel } from '../models/index.ts';

/**
 * What an engine may know about the printer it emulates. Engines read it through a
 * callback (`getContext`) because flags and drawers change while a connection is open
 * and status replies must reflect the state at the moment the query arrives.
 */

export type DrawerState = 'Closed' | 'OpenedManually' | 'OpenedByCommand';

export interface OperationalFlags {
  isCoverOpen: boolean;
  isPaperOut: boolean;
  isOffline: boolean;
  hasError: boolean;
  isPaperNearEnd: boolean;
}

export interface PrinterContext {
  widthInDots: number;
  heightInDots: number | null;
  flags: OperationalFlags;
  drawer1State: DrawerState;
  drawer2State: DrawerState;
  /** True while the emulated receive buffer is full (reported as offline in DLE EOT 1). */
  bufferFull: boolean;
  /** NV bit images by slot (1..255), as defined over TCP or uploaded through the API. */
  nvImages: ReadonlyMap<number, Bitmap>;
  /**
   * Legacy: multi-byte encoding of ESC/POS Kanji mode (FS &); its presence also means the
   * unit boots in Kanji mode. `multiByteEncoding` supersedes it.
   */
  kanjiEncoding?: 'shift_jis' | 'gb18030' | 'big5' | 'euc-kr';
  /** The printer model emulated (code tables, identity); the protocol's default model when absent. */
  model?: PrinterModel;
  /** settings.multiByteEncoding: what Kanji mode (FS &) decodes; the model's default when absent. */
  multiByteEncoding?: MultiByteEncoding;
}

/** Side effects an engine asks the printer to apply, in the order the bytes requested them. */
export type EngineEvent =
  | { type: 'drawerKick'; drawer: 1 | 2 }
  | { type: 'nvImageDefined'; slot: number; bitmap: Bitmap }
  | { type: 'nvImageDeleted'; slot: number };

/** Result of feeding bytes to a session: replies to write back at once, and side effects. */
export interface PushResult {
  replies: Uint8Array[];
  events: EngineEvent[];
}

/**
 * One print job being received. `push` is called as bytes arrive (any chunking), `finish`
 * once when the connection ends. Implementations must never throw on any input.
 */
export interface ProtocolSession {
  push(bytes: Uint8Array): PushResult;
  /** Called when flags or drawers change mid-connection (ESC/POS ASB re-sends status). */
  contextChanged(): PushResult;
  finish(): import('./model.ts').RenderedJob;
  /**
   * Optional: does a bounded part (about `FINISH_STEP_UNITS` of core/budget.ts) of the work
   * `finish` would do in one go (PNG encoding of the job's images) and says whether more is
   * left. A host that shares its thread calls it until false, yielding in between
   * (src/worker/objects/slices.ts); `finish` then only assembles. No bytes may follow.
   */
  finishStep?(): boolean;
  /**
   * Optional: the rendering work (core/budget.ts units) the job has spent so far. A host that
   * shares its thread ends a slice of bytes early once a slice spent about 20 ms of it
   * (src/worker/objects/slices.ts): a few bytes can hold a large QR Code.
   */
  workSpent?(): number;
  /**
   * Optional: from now on the job's elements go to `sink` as they become final
   * (canvas/element-sink.ts), so that a long job's elements do not all live until it ends;
   * once the sink was given any, `finish`'s canvases carry their sizes, not their elements.
   * Receipt engines have it.
   */
  streamTo?(sink: import('./element-sink.ts').ElementSink): void;
}

export const NO_OUTPUT: PushResult = Object.freeze({ replies: [], events: [] }) as PushResult;
