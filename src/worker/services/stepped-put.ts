/**
 * An R2 write of a large body in steps. `put` of a 16 MiB buffer was one step of ~100 ms on the
 * printer objects' shared thread under `wrangler dev` (the local R2 simulator hashes and writes
 * it in one go); streamed through a `FixedLengthStream` a MiB at a time, with a pause between,
 * it is many short steps, and R2 still sees one object of known length.
 */
const PUT_STEP = 1 << 20;

export async function putInSteps(bucket: R2Bucket, key: string, bytes: Uint8Array, options: R2PutOptions | undefined, pause: () => Promise<void>): Promise<void> {
  if (bytes.length <= PUT_STEP) {
    await bucket.put(key, bytes, options);
    return;
  }
  const { readable, writable } = new FixedLengthStream(bytes.length);
  const stored = bucket.put(key, readable, options);
  // Rejected (the write failed): the writes below fail too; the put's own error is the one thrown.
  stored.catch(() => {});
  const writer = writable.getWriter();
  try {
    for (let at = 0; at < bytes.length; at += PUT_STEP) {
      if (at > 0) await pause();
      await writer.write(bytes.subarray(at, at + PUT_STEP));
    }
    await writer.close();
  } catch {
    await stored;
    throw new Error(`R2 write of ${key} failed`);
  }
  await stored;
}
