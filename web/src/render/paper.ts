/**
 * Renders documents as paper: canvases at their dot size (scaled to fit by CSS through
 * `--avail`, set on the list), text as absolutely positioned spans, images from media, lines
 * and boxes as divs, a cut between canvases, labels as labels.
 */
import type { CanvasDto, RenderedDocumentDto } from '../types.ts';
import { boxCss, layoutCanvas, type CanvasLayout } from './layout.ts';
import { monoAdvance } from './font.ts';
import { glyphLayerCss, textGlyphMask } from './glyphs.ts';
import { isLabelProtocol } from '../protocols.ts';

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function safeUrl(url: string): string {
  return /^(\/|https?:|blob:|data:image\/)/i.test(url) ? url : '';
}

export function layoutDocument(doc: RenderedDocumentDto): CanvasLayout[] {
  const advance = monoAdvance();
  const isLabel = doc.protocol ? isLabelProtocol(doc.protocol) : undefined;
  return (doc.canvases ?? []).map((c: CanvasDto) => {
    const layout = layoutCanvas(c, { monoAdvance: advance, isLabel });
    for (const box of layout.boxes) {
      const el = c.items?.[box.index];
      if (box.kind === 'text' && el?.type === 'text') box.glyphMask = textGlyphMask(el) || undefined;
    }
    return layout;
  });
}

/** HTML of one canvas (a paper frame holding the scaled paper). */
export function canvasHtml(layout: CanvasLayout, label: string): string {
  let inner = '';
  for (const box of layout.boxes) {
    const css = boxCss(box);
    switch (box.kind) {
      case 'text':
        if (box.glyphMask) {
          // The printer's dots, then the text itself invisible on top for selection and screen readers.
          inner += `<span class="el-glyphs" aria-hidden="true" style="${escapeHtml(glyphLayerCss(box.glyphMask, box.left, box.top, box.width, box.height, box.mode))}"></span>`;
          inner += `<span class="el-text" style="${css}color:transparent;background:none;text-decoration-color:transparent;">${escapeHtml(box.text)}</span>`;
        } else {
          inner += `<span class="el-text" style="${css}">${escapeHtml(box.text)}</span>`;
        }
        break;
      case 'image':
        if (box.mode === 'black') inner += `<img class="el-img" style="${css}" src="${escapeHtml(safeUrl(box.src))}" alt="" decoding="async" draggable="false">`;
        // Erasing or flipping images are their dots as a mask over a layer (layout.ts boxStyle).
        else if (safeUrl(box.src)) inner += `<span class="el-img" aria-hidden="true" style="${escapeHtml(css)}"></span>`;
        break;
      default:
        inner += `<div class="el-shape" style="${css}"></div>`;
    }
  }
  const cls = layout.isLabel ? 'paper-frame label' : 'paper-frame receipt';
  return `<div class="${cls}" style="--w:${layout.width};--h:${layout.height}" role="img" aria-label="${escapeHtml(label)}">`
    + `<div class="paper" style="width:${layout.width}px;height:${layout.height}px">${inner}</div></div>`;
}

/** HTML of all canvases of a document with cut marks between (and after) receipt canvases. */
export function documentPaperHtml(doc: RenderedDocumentDto, layouts = layoutDocument(doc)): string {
  if (layouts.length === 0) return '<p class="muted empty-doc">This document has nothing printable.</p>';
  const isLabels = layouts.every((l) => l.isLabel);
  let html = `<div class="paper-stack${isLabels ? ' labels' : ''}">`;
  layouts.forEach((l, i) => {
    const what = l.isLabel ? `Label ${i + 1} of ${layouts.length}` : `Receipt part ${i + 1} of ${layouts.length}`;
    html += canvasHtml(l, what);
    if (!l.isLabel && i < layouts.length - 1) html += '<div class="cut" aria-hidden="true"><span>✂</span></div>';
  });
  return html + '</div>';
}
