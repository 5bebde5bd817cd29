/**
 * Text a printer's Durable Object hands the Worker (a document's JSON). A call between them
 * carries at most 32 MiB serialised, and a string holding one character outside Latin-1 (a
 * box-drawing rule of code page 437) is serialised at two bytes a character: a long report's
 * JSON of 20 M characters is ~42 MB. Text longer than INLINE_CHARS therefore goes as a stream
 * of its UTF-8, which a call carries whatever its length.
 */
export type RpcText = string | ReadableStream<Uint8Array>;

/** Longest text sent as a string: 16 MiB at two bytes a character, half the cap. */
export const INLINE_CHARS = 8 * 1024 * 1024;
/** Characters encoded per chunk of a streamed text. */
const CHUNK_CHARS = 1 << 20;

/** The text as a call carries it (the object's side). */
export function toRpcText(text: string): RpcText {
  return text.length <= INLINE_CHARS ? text : streamOf(utf8Chunks(text));
}

/** The text whole (the Worker's side, for what parses it). */
export async function rpcTextString(text: RpcText): Promise<string> {
  return typeof text === 'string' ? text : new Response(text).text();
}

/** Texts joined as one response body: a string when every part is one, a stream otherwise. */
export function joinedBody(parts: RpcText[]): RpcText {
  if (parts.every((p) => typeof p === 'string')) return parts.join('');
  return streamOf((async function* () {
    for (const part of parts) {
      if (typeof part === 'string') yield* utf8Chunks(part);
      else yield* part as unknown as AsyncIterable<Uint8Array>;
    }
  })());
}

/**
 * Text made in pieces (none splitting a surrogate pair), as a stream of its UTF-8 about
 * CHUNK_CHARS at a time: the pieces are made only as the stream is read, so the whole text
 * never exists at once.
 */
export function streamOfPieces(pieces: Iterator<string, unknown>): ReadableStream<Uint8Array> {
  return streamOf((function* () {
    let chunk = '';
    for (let next = pieces.next(); !next.done; next = pieces.next()) {
      chunk += next.value;
      if (chunk.length >= CHUNK_CHARS) {
        yield* utf8Chunks(chunk);
        chunk = '';
      }
    }
    if (chunk.length > 0) yield* utf8Chunks(chunk);
  })());
}

/** A stream that encodes or reads its next chunk only when asked for it. */
function streamOf(chunks: Iterator<Uint8Array> | AsyncIterator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
}

/** The text's UTF-8 a chunk at a time, never cutting a surrogate pair in two. */
function* utf8Chunks(text: string): Generator<Uint8Array> {
  const encoder = new TextEncoder();
  for (let at = 0; at < text.length;) {
    let end = Math.min(at + CHUNK_CHARS, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    yield encoder.encode(text.slice(at, end));
    at = end;
  }
}
