/**
 * How a document's body is kept at rest (before gzip): the RenderedDocumentDto with each
 * canvas's elements as rows of values under a table of key lists ("shapes"), instead of
 * objects that repeat every key. A text receipt's ~700 elements share a handful of shapes, so
 * the packed JSON is under half the size of the DTO's, and serialising and compressing it (the
 * printer object's CPU per document) costs about half as much. Lossless and generic: unpacking
 * gives the DTO with its keys in the same order, byte for byte the JSON the API always served.
 *
 * Bodies stored before this format (DTO JSON) are told apart by their first bytes and served
 * as they are.
 */
const MARK = '{"packed":1,';

interface PackedCanvas {
  widthInDots: number;
  heightInDots?: number;
  shapes: string[][];
  items: unknown[][];
}

type Dto = { canvases: { widthInDots: number; heightInDots?: number; items: object[] }[] } & Record<string, unknown>;

/** The packed body's JSON for a document DTO (undefined fields are left out, as JSON.stringify does). */
export function packDocument(dto: Dto): string {
  const canvases: PackedCanvas[] = dto.canvases.map((c) => {
    const shapes: string[][] = [];
    const shapeIds = new Map<string, number>();
    const items = c.items.map((el) => {
      const values: unknown[] = [0];
      const keys: string[] = [];
      for (const k in el) {
        const v = (el as Record<string, unknown>)[k];
        if (v === undefined) continue;
        keys.push(k);
        values.push(v);
      }
      const signature = keys.join(',');
      let id = shapeIds.get(signature);
      if (id === undefined) {
        id = shapes.length;
        shapeIds.set(signature, id);
        shapes.push(keys);
      }
      values[0] = id;
      return values;
    });
    return { widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }), shapes, items };
  });
  return `${MARK}"doc":${JSON.stringify({ ...dto, canvases })}}`;
}

/** The RenderedDocumentDto JSON of a stored body (packed or, from before, the DTO itself). */
export function documentJsonOfBody(body: string): string {
  if (!body.startsWith(MARK)) return body;
  const { doc } = JSON.parse(body) as { doc: Record<string, unknown> & { canvases: PackedCanvas[] } };
  doc.canvases = doc.canvases.map((c) => ({
    widthInDots: c.widthInDots,
    ...(c.heightInDots != null && { heightInDots: c.heightInDots }),
    items: c.items.map((row) => {
      const keys = c.shapes[row[0] as number];
      const el: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) el[keys[i]] = row[i + 1];
      return el;
    }),
  })) as unknown as PackedCanvas[];
  return JSON.stringify(doc);
}
