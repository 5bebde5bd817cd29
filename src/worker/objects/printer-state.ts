import type { Env } from '../env.ts';
import type { PrinterRow } from '../data/rows.ts';
import { findPrinter } from '../data/printers.ts';
import { createProtocolSession, newPrinterMemory, type PrinterMemory } from '../../engines/index.ts';
import type { PrinterContext } from '../../engines/canvas/printer-context.ts';
import type { Bitmap } from '../../engines/raster/bitmap.ts';
import { modelContext, type ModelContext } from '../../engines/models/index.ts';
import { modelChoiceOf } from '../services/printer-models.ts';
import { loadNvBitmaps } from '../services/nv-images.ts';

export interface LiveBufferFigures { bufferedBytes: number; bufferedBytesDeltaBps: number }

/**
 * The printer as its object knows it: the cached D1 row (refreshed when the Worker reports a
 * change), its NV images, its receive buffer figures from the bridge, the printer memory that
 * outlives connections, and the engine context built from them.
 */
export class PrinterState {
  printerId: string | null = null;
  row: PrinterRow | null = null;
  /** The bridge's latest buffer figures while buffer emulation is on. */
  buffer: LiveBufferFigures | null = null;
  private nvImages: Map<number, Bitmap> | null = null;
  /** EPL forms and graphics stored over TCP; kept across connections like a real printer's RAM. */
  private readonly memory: PrinterMemory = newPrinterMemory();

  constructor(private readonly env: Env) {}

  /** The printer (cached after the first read); null when it does not exist. */
  async load(printerId: string): Promise<PrinterRow | null> {
    if (this.row && this.printerId === printerId.toLowerCase()) return this.row;
    this.printerId = printerId.toLowerCase();
    this.row = await findPrinter(this.env.DB, printerId);
    return this.row;
  }

  /** The row the Worker just wrote (flags, drawers, settings, state). */
  changed(row: PrinterRow): void {
    this.printerId = row.id;
    this.row = row;
  }

  async loadNvImages(): Promise<void> {
    this.nvImages ??= await loadNvBitmaps(this.env, this.printerId!);
  }

  /** NV images were uploaded or deleted through the API: read again now. */
  async reloadNvImages(printerId: string): Promise<void> {
    this.printerId ??= printerId.toLowerCase();
    this.nvImages = await loadNvBitmaps(this.env, this.printerId);
  }

  setNvImage(slot: number, bitmap: Bitmap | null): void {
    if (bitmap) this.nvImages?.set(slot, bitmap);
    else this.nvImages?.delete(slot);
  }

  /** A protocol session for one job, reading the printer's context as it is at each command. */
  newEngine(row: PrinterRow) {
    return createProtocolSession(row.protocol, () => this.context(), this.memory);
  }

  /** The printer's flags as its engine sees them. */
  flags(): PrinterContext['flags'] {
    return this.context().flags;
  }

  private context(): PrinterContext & ModelContext {
    const row = this.row!;
    const { model, multiByteEncoding } = modelChoiceOf(row);
    return {
      ...modelContext(model, multiByteEncoding),
      widthInDots: row.width_in_dots,
      heightInDots: row.height_in_dots,
      flags: {
        isCoverOpen: row.is_cover_open === 1,
        isPaperOut: row.is_paper_out === 1,
        isOffline: row.is_offline === 1,
        hasError: row.has_error === 1,
        isPaperNearEnd: row.is_paper_near_end === 1,
      },
      drawer1State: row.drawer1_state,
      drawer2State: row.drawer2_state,
      bufferFull: this.buffer !== null && row.buffer_max_capacity !== null && this.buffer.bufferedBytes >= row.buffer_max_capacity,
      nvImages: this.nvImages ?? new Map(),
    };
  }
}
