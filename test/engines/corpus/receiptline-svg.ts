/**
 * Reads receiptline's own SVG drawing of a document: every <tspan> is one character cell
 * (receiptline puts a Thai base and its marks in one tspan), centred at its x (text-anchor
 * middle), inside a <text> that may be scaled (double width/height) and a <g> translated to
 * the line's bottom.
 */
import type { Glyph } from './run-job.ts';

function unescapeXml(s: string): string {
  return s
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
}

export function svgGlyphs(svg: string): Glyph[] {
  const glyphs: Glyph[] = [];
  const groups = /<g transform="translate\(([\d.-]+),([\d.-]+)\)">([\s\S]*?)<\/g>/g;
  for (const g of svg.matchAll(groups)) {
    const tx = Number(g[1]);
    const ty = Number(g[2]);
    for (const t of g[3].matchAll(/<text([^>]*)>([\s\S]*?)<\/text>/g)) {
      const scale = /scale\(([\d.]+),([\d.]+)\)/.exec(t[1]);
      const sx = scale ? Number(scale[1]) : 1;
      for (const span of t[2].matchAll(/<tspan[^>]*\bx="([\d.-]+)"[^>]*>([\s\S]*?)<\/tspan>/g)) {
        const cell = unescapeXml(span[2]);
        if (!cell.trim()) continue;
        glyphs.push({ cell, centerX: Math.round(tx + Number(span[1]) * sx), lineBottom: ty });
      }
    }
  }
  return glyphs;
}
