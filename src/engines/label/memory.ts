import type { Bitmap } from '../raster/bitmap.ts';

/**
 * What a label printer keeps between connections: stored forms / formats (EPL FS, ZPL ^DF)
 * and graphics (EPL GM, ZPL ~DG), by name. The printer object passes the same memory to every
 * session, so a form stored by one job prints in the next. `F` is the language's form type.
 */
export interface LabelPrinterMemory<F> {
  forms: Map<string, F>;
  graphics: Map<string, Bitmap>;
}
