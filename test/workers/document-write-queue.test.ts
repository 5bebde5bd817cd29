/**
 * The printer's write-behind queue (src/worker/objects/document-write-queue.ts): documents of
 * one window go to D1 in one batch, in order; `now` and `settled()` flush at once; a failed
 * batch is retried once, then fails its documents only.
 */
import { describe, expect, it } from 'vitest';
import { DocumentWriteQueue } from '../../src/worker/objects/document-write-queue.ts';
import { sleep } from './helpers.ts';

function recorder(failures = 0) {
  const batches: string[][] = [];
  let left = failures;
  const commit = async (docs: string[]) => {
    await sleep(5);
    if (left-- > 0) throw new Error('D1 unavailable');
    batches.push(docs);
  };
  return { batches, commit };
}

describe('DocumentWriteQueue', () => {
  it('writes the documents of one window in one batch, in order, once the window is over', async () => {
    const r = recorder();
    const q = new DocumentWriteQueue<string>(r.commit, 100);
    const t0 = Date.now();
    const done = Promise.all(['a', 'b', 'c'].map((d) => q.add(d)));
    await sleep(30);
    expect(r.batches).toEqual([]);
    await done;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(95);
    expect(r.batches).toEqual([['a', 'b', 'c']]);
  });

  it('`now` and settled() flush what waits at once', async () => {
    const r = recorder();
    const q = new DocumentWriteQueue<string>(r.commit, 10_000);
    const waiting = q.add('a');
    await q.add('b', true);
    await waiting;
    expect(r.batches).toEqual([['a', 'b']]);
    const c = q.add('c');
    await q.settled();
    expect(r.batches).toEqual([['a', 'b'], ['c']]);
    await c;
  });

  it('splits a long queue into batches of at most maxBatch', async () => {
    const r = recorder();
    const q = new DocumentWriteQueue<string>(r.commit, 10_000, 2);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((d) => q.add(d)).concat(q.settled()));
    expect(r.batches).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('retries a failed batch once; a batch failing twice rejects its documents, and later ones are written', async () => {
    const once = recorder(1);
    const q1 = new DocumentWriteQueue<string>(once.commit, 10);
    await q1.add('a');
    expect(once.batches).toEqual([['a']]);

    const twice = recorder(2);
    const q2 = new DocumentWriteQueue<string>(twice.commit, 10);
    await expect(q2.add('lost')).rejects.toThrow('D1 unavailable');
    await q2.add('next');
    expect(twice.batches).toEqual([['next']]);
  });
});
