/** gzip at rest with the platform's CompressionStream (workerd, Node and browsers alike). */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function gzipText(text: string): Promise<Uint8Array> {
  return collect(new Blob([encoder.encode(text) as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip')));
}

export async function gunzipText(bytes: Uint8Array): Promise<string> {
  return decoder.decode(await collect(new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'))));
}

async function collect(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
