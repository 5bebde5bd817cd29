/**
 * zlib-format deflate for PNG IDAT and PDF FlateDecode streams. The platform's native
 * CompressionStream (workerd, browsers, Node 18+) is ~2.5x faster than JavaScript deflate on a
 * 200 KB receipt (1.0 ms vs 2.4 ms for fflate at level 1), so it is used where present.
 */
import { zlibSync } from 'fflate';

export async function zlibDeflate(data: Uint8Array): Promise<Uint8Array> {
  if (typeof CompressionStream === 'function') {
    const stream = new CompressionStream('deflate');
    const writer = stream.writable.getWriter();
    void writer.write(data as Uint8Array<ArrayBuffer>);
    void writer.close();
    return new Uint8Array(await new Response(stream.readable).arrayBuffer());
  }
  return zlibSync(data, { level: 1 });
}

export function zlibDeflateSync(data: Uint8Array): Uint8Array {
  return zlibSync(data, { level: 6 });
}
