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
    // Shapes by element type: an element's keys are compared with its type's few shapes (no
    // signature strings built and hashed per element: this runs for every element printed).
    const shapesByType = new Map<unknown, number[]>();
    const items = c.items.map((el) => {
      const o = el as Record<string, unknown>;
      const values: unknown[] = [0];
      const keys: string[] = [];
      for (const k in o) {
        const v = o[k];
        if (v === undefined) continue;
        keys.push(k);
        values.push(v);
      }
      let candidates = shapesByType.get(o.type);
      if (!candidates) shapesByType.set(o.type, (candidates = []));
      let id = -1;
      for (const s of candidates) {
        if (sameKeys(shapes[s], keys)) {
          id = s;
          break;
        }
      }
      if (id < 0) {
        id = shapes.length;
        shapes.push(keys);
        candidates.push(id);
      }
      values[0] = id;
      return values;
    });
    return { widthInDots: c.widthInDots, ...(c.heightInDots != null && { heightInDots: c.heightInDots }), shapes, items };
  });
  return `${MARK}"doc":${JSON.stringify({ ...dto, canvases })}}`;
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The RenderedDocumentDto JSON of a stored body (packed or, from before, the DTO itself). */
export function documentJsonOfBody(body: string): string {
  // Documents stored before `transport` existed all came over TCP (imports too were rare and untold).
  // Element text is JSON-escaped, so `"transport":` unescaped can only be the document's key.
  if (!body.startsWith(MARK)) return body.includes('"transport":') ? body : body.replace(/^\{/, '{"transport":"Tcp",');
  const { doc } = JSON.parse(body) as { doc: Record<string, unknown> & { canvases: PackedCanvas[] } };
  doc.transport ??= 'Tcp';
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
