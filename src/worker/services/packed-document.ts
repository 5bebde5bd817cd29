/**
 * Reading the JSON bodies at rest: the RenderedDocumentDto's JSON itself (documents someone was
 * waiting for, and bodies from before any other format), or format 1, "packed": the DTO with
 * each canvas's elements as rows of values under a table of key lists ("shapes"). Nothing
 * writes format 1 any more (new bodies are the DTO's JSON or format 2, compact-body.ts); it
 * is read for the documents stored in it. Unpacking gives the DTO with its keys in the same
 * order, byte for byte the JSON the API always served.
 */
export const PACKED_MARK = '{"packed":1,';

interface PackedCanvas {
  widthInDots: number;
  heightInDots?: number;
  shapes: string[][];
  items: unknown[][];
}

/** A packed canvas as the DTO has it: elements as objects, keys in their shape's order. */
function unpackCanvas(c: PackedCanvas): { widthInDots: number; heightInDots?: number; items: Record<string, unknown>[] } {
  return {
    widthInDots: c.widthInDots,
    ...(c.heightInDots != null && { heightInDots: c.heightInDots }),
    items: c.items.map((row) => {
      const keys = c.shapes[row[0] as number];
      const el: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) el[keys[i]] = row[i + 1];
      return el;
    }),
  };
}

/**
 * The RenderedDocumentDto JSON of a stored body (packed, or the DTO itself).
 * `isStatusPoll` (the document table's column) completes bodies stored before the DTO had it.
 */
export function documentJsonOfBody(body: string, isStatusPoll: boolean): string {
  if (!body.startsWith(PACKED_MARK)) {
    const json = body.includes('"isStatusPoll":') ? body : `${body.slice(0, -1)},"isStatusPoll":${isStatusPoll}}`;
    // Bodies stored before `transport` existed all came over TCP (element text is JSON-escaped,
    // so an unescaped `"transport":` can only be the document's key).
    return json.includes('"transport":') ? json : json.replace(/^\{/, '{"transport":"Tcp",');
  }
  const { doc } = JSON.parse(body) as { doc: Record<string, unknown> & { canvases: PackedCanvas[] } };
  doc.isStatusPoll ??= isStatusPoll;
  doc.transport ??= 'Tcp';
  return JSON.stringify({ ...doc, canvases: doc.canvases.map(unpackCanvas) });
}
