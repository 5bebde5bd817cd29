/**
 * Pages -> PDF: one page per canvas at its physical size (dots / dpi inches), the page's
 * picture as a 1-bit Flate-compressed image filling it.
 *
 * Written by hand rather than with a PDF library: a page that is one image needs five small
 * objects, the established JS PDF libraries (pdf-lib, unmaintained since 2021; jsPDF and
 * pdfkit, built for browsers/Node streams) would add hundreds of KB to the Worker bundle, and
 * the output is checked by parsing it back with pdf-lib in the tests.
 */
import { zlibDeflate } from './deflate.ts';
import type { PackedRaster } from './raster.ts';

export const DEFAULT_DPI = 203;

/** Points (1/72 inch) for `dots` at `dpi`, to 1/1000 pt. */
export function dotsToPoints(dots: number, dpi: number): number {
  return Math.round((dots / dpi) * 72 * 1000) / 1000;
}

class PdfWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;
  private readonly offsets: number[] = [];
  private readonly encoder = new TextEncoder();

  write(part: string | Uint8Array): void {
    const bytes = typeof part === 'string' ? this.encoder.encode(part) : part;
    this.chunks.push(bytes);
    this.length += bytes.length;
  }

  /** Begin object `id` (1-based, written in order). */
  object(id: number, body: string, stream?: Uint8Array): void {
    this.offsets[id] = this.length;
    this.write(`${id} 0 obj\n${body}\n`);
    if (stream) {
      this.write('stream\n');
      this.write(stream);
      this.write('\nendstream\n');
    }
    this.write('endobj\n');
  }

  finish(rootId: number): Uint8Array {
    const xref = this.length;
    const count = this.offsets.length;
    let table = `xref\n0 ${count}\n0000000000 65535 f \n`;
    for (let i = 1; i < count; i++) table += `${String(this.offsets[i]).padStart(10, '0')} 00000 n \n`;
    this.write(`${table}trailer\n<< /Size ${count} /Root ${rootId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
    const out = new Uint8Array(this.length);
    let p = 0;
    for (const c of this.chunks) { out.set(c, p); p += c.length; }
    return out;
  }
}

export async function encodePagesPdf(pages: readonly PackedRaster[], dpi = DEFAULT_DPI): Promise<Uint8Array> {
  const images = await Promise.all(pages.map((p) => zlibDeflate(p.data)));
  const pdf = new PdfWriter();
  pdf.write('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n');
  // Objects: 1 catalog, 2 page tree, then per page: page, content, image.
  const pageIds = pages.map((_, i) => 3 + i * 3);
  pdf.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  pdf.object(2, `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`);
  pages.forEach((page, i) => {
    const id = pageIds[i];
    const w = dotsToPoints(Math.max(1, page.width), dpi), h = dotsToPoints(Math.max(1, page.height), dpi);
    pdf.object(id, `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 ${id + 2} 0 R >> >> /Contents ${id + 1} 0 R >>`);
    const content = new TextEncoder().encode(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q\n`);
    pdf.object(id + 1, `<< /Length ${content.length} >>`, content);
    const image = images[i];
    // Our bit 1 is a black dot; DeviceGray's 1 is white, hence /Decode [1 0].
    pdf.object(id + 2, `<< /Type /XObject /Subtype /Image /Width ${Math.max(1, page.width)} /Height ${Math.max(1, page.height)} /ColorSpace /DeviceGray /BitsPerComponent 1 /Decode [1 0] /Interpolate false /Filter /FlateDecode /Length ${image.length} >>`, image);
  });
  return pdf.finish(1);
}
