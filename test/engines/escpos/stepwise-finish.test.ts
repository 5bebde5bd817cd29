/**
 * Issue 17: a host sharing its thread finishes a job in bounded steps (`finishStep`), and the
 * document is exactly the one a single `finish` renders. Identical small images are encoded
 * once per job (one PNG object, so the store keeps one medium for them).
 */
import { describe, expect, it } from 'vitest';
import { createEscPosSession } from '../../../src/engines/escpos/index.ts';
import { createStarSession } from '../../../src/engines/star/index.ts';
import { FINISH_STEP_UNITS } from '../../../src/engines/core/budget.ts';
import { all, bytes, context, ESC, GS } from './helpers.ts';

/** GS v 0 raster of w x h bytes-by-dots with a fill byte. */
function raster(wBytes: number, h: number, fill: number): Uint8Array {
  const head = bytes(GS, 'v0', 0, wBytes & 0xff, wBytes >> 8, h & 0xff, h >> 8);
  const out = new Uint8Array(head.length + wBytes * h).fill(fill);
  out.set(head);
  return out;
}

function job(): Uint8Array {
  // Five pictures of 576 x 1,000 dots (576,000 pixels each): more than one step's worth.
  const parts = [bytes(ESC, '@')];
  for (let i = 0; i < 5; i++) parts.push(raster(72, 1000, 0x11 * (i + 1)), bytes('\n'));
  for (let i = 0; i < 50; i++) parts.push(raster(1, 1, 0xaa));
  return bytes(...parts);
}

describe('finishing in steps', () => {
  it('renders the same document as one finish, in more than one bounded step', () => {
    const whole = createEscPosSession(() => context());
    whole.push(job());
    const expected = whole.finish();

    const stepped = createEscPosSession(() => context());
    stepped.push(job());
    let steps = 0;
    while (stepped.finishStep!()) steps++;
    expect(steps).toBeGreaterThanOrEqual(Math.floor((5 * 576_000) / FINISH_STEP_UNITS));
    expect(stepped.finishStep!()).toBe(false);
    expect(stepped.finish()).toEqual(expected);
  });

  it('encodes identical small images once per job', () => {
    const s = createEscPosSession(() => context());
    s.push(job());
    const images = all(s.finish()).filter((e) => e.type === 'image');
    const tiny = images.filter((e) => e.type === 'image' && e.height === 1);
    expect(tiny).toHaveLength(50);
    expect(new Set(tiny.map((e) => e.type === 'image' && e.image.png)).size).toBe(1);
    expect(new Set(images.map((e) => e.type === 'image' && e.image.png)).size).toBe(6);
  });

  it('is offered by the Star engines too', () => {
    const s = createStarSession('StarPrnt', () => context());
    s.push(bytes(ESC, '@', 'hello\n'));
    while (s.finishStep!()) { /* bounded steps */ }
    expect(s.finish().canvases.length).toBeGreaterThan(0);
  });

  it('stores a picture larger than one step as stacked bands of at most one step each', () => {
    const s = createEscPosSession(() => context());
    s.push(bytes(ESC, '@'));
    s.push(raster(72, 3000, 0x55));
    const images = all(s.finish()).filter((e) => e.type === 'image');
    expect(images.reduce((h, e) => h + e.height, 0)).toBe(3000);
    expect(images.length).toBeGreaterThan(1);
    for (const e of images) expect(e.width * e.height).toBeLessThanOrEqual(FINISH_STEP_UNITS);
    for (let i = 1; i < images.length; i++) expect(images[i].y).toBe(images[i - 1].y + images[i - 1].height);
  });

  it('clips an image wider than the paper, with an error', () => {
    const s = createEscPosSession(() => context());
    s.push(bytes(ESC, '@', raster(300, 10, 0xff)));
    const job = s.finish();
    const [image] = all(job).filter((e) => e.type === 'image');
    expect(image.width).toBe(576);
    expect(job.errorMessages.join(' ')).toMatch(/GS v 0: an image 2400 dots wide is wider than the 576-dot paper/);
  });

  it('does not decode a raster the job cannot afford, and says so', () => {
    const s = createEscPosSession(() => context());
    s.push(bytes(ESC, '@'));
    s.push(raster(72, 60_000, 0x55)); // 34.6 M dots: over the whole job budget
    const job = s.finish();
    expect(all(job).filter((e) => e.type === 'image')).toHaveLength(0);
    expect(job.errorMessages[0]).toMatch(/units of rendering work/);
  });

  it('narrows a page-mode area wider than the paper, with an error', () => {
    const s = createEscPosSession(() => context());
    s.push(bytes(ESC, '@', ESC, 'L', ESC, 'W', 0, 0, 0, 0, 0xff, 0xff, 0x00, 0x01, 'PAGE', 0x0c));
    expect(s.finish().errorMessages.join(' ')).toMatch(/page-mode print area of 65535 dots from x 0 is wider than the 576-dot paper/);
  });
});
