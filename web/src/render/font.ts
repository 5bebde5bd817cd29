/** The monospace face used for printer text, and its measured advance (em). */
export const MONO_FAMILY = '"DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, "Courier New", monospace';

let advance: number | null = null;

export function monoAdvance(): number {
  if (advance !== null) return advance;
  advance = 0.6;
  try {
    const ctx = document.createElement('canvas').getContext('2d');
    if (ctx) {
      ctx.font = `100px ${MONO_FAMILY}`;
      const w = ctx.measureText('MMMMMMMMMM').width / 1000;
      if (w > 0.3 && w < 1) advance = w;
    }
  } catch { /* keep default */ }
  return advance;
}
