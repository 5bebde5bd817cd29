/** Draws a document's canvases onto an HTML canvas (the same boxes as the page) and saves a PNG. */
import type { RenderedDocumentDto } from '../types.ts';
import type { CanvasLayout, PaperBox } from './layout.ts';
import { layoutDocument } from './paper.ts';
import { MONO_FAMILY } from './font.ts';

const GAP = 24;

function loadImage(src: string): Promise<HTMLImageElement | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = src;
  });
}

function rotate(ctx: CanvasRenderingContext2D, rotation: number, w: number, h: number): void {
  if (rotation === 90) { ctx.translate(w, 0); ctx.rotate(Math.PI / 2); }
  else if (rotation === 180) { ctx.translate(w, h); ctx.rotate(Math.PI); }
  else if (rotation === 270) { ctx.translate(0, h); ctx.rotate(-Math.PI / 2); }
}

function drawBox(ctx: CanvasRenderingContext2D, box: PaperBox, images: Map<string, HTMLImageElement | null>, ink: string, paper: string): void {
  ctx.save();
  ctx.translate(box.left, box.top);
  switch (box.kind) {
    case 'text': {
      rotate(ctx, box.rotation, box.width, box.height);
      ctx.scale(box.scaleX, box.scaleY);
      const fs = box.fontSize;
      ctx.font = `${box.italic ? 'italic ' : ''}${box.bold ? '700 ' : '400 '}${fs}px ${MONO_FAMILY}`;
      (ctx as unknown as { letterSpacing: string }).letterSpacing = `${box.letterSpacing}px`;
      const sideways = box.rotation === 90 || box.rotation === 270;
      const runWidth = (sideways ? box.height : box.width) / box.scaleX;
      if (box.reverse) { ctx.fillStyle = ink; ctx.fillRect(0, 0, runWidth, fs); }
      const m = ctx.measureText(box.text);
      const asc = m.fontBoundingBoxAscent ?? fs * 0.8;
      const desc = m.fontBoundingBoxDescent ?? fs * 0.2;
      const baseline = (fs - (asc + desc)) / 2 + asc;
      ctx.fillStyle = box.reverse ? paper : ink;
      ctx.textBaseline = 'alphabetic';
      ctx.fillText(box.text, 0, baseline);
      if (box.underline) ctx.fillRect(0, baseline + Math.max(1, fs * 0.08), runWidth, box.underlineThickness);
      break;
    }
    case 'image': {
      const img = images.get(box.src);
      if (img) {
        rotate(ctx, box.rotation, box.width, box.height);
        const sideways = box.rotation === 90 || box.rotation === 270;
        ctx.imageSmoothingEnabled = false;
        ctx.drawImage(img, 0, 0, sideways ? box.height : box.width, sideways ? box.width : box.height);
      }
      break;
    }
    case 'rect': {
      if (box.mode === 'xor') ctx.globalCompositeOperation = 'difference';
      const colour = box.mode === 'white' ? paper : box.mode === 'xor' ? '#ffffff' : ink;
      if (box.border > 0) {
        ctx.strokeStyle = colour;
        ctx.lineWidth = box.border;
        ctx.strokeRect(box.border / 2, box.border / 2, box.width - box.border, box.height - box.border);
      } else {
        ctx.fillStyle = colour;
        ctx.fillRect(0, 0, box.width, box.height);
      }
      break;
    }
    case 'bar': {
      ctx.rotate((box.angle * Math.PI) / 180);
      ctx.fillStyle = ink;
      ctx.fillRect(0, 0, box.length, box.thickness);
      break;
    }
  }
  ctx.restore();
}

export async function documentToPngBlob(doc: RenderedDocumentDto, layouts: CanvasLayout[] = layoutDocument(doc)): Promise<{ blob: Blob; missingImages: number }> {
  const width = Math.max(1, ...layouts.map((l) => l.width));
  const height = Math.max(1, layouts.reduce((sum, l) => sum + l.height, 0) + GAP * Math.max(0, layouts.length - 1));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw onto a canvas, so the PNG cannot be made.');
  const srcs = new Set<string>();
  for (const l of layouts) for (const b of l.boxes) if (b.kind === 'image' && b.src) srcs.add(b.src);
  const images = new Map<string, HTMLImageElement | null>();
  await Promise.all([...srcs].map(async (s) => images.set(s, await loadImage(s))));
  const missing = [...images.values()].filter((i) => !i).length;
  ctx.fillStyle = '#d0d0d0';
  ctx.fillRect(0, 0, width, height);
  let y = 0;
  for (const l of layouts) {
    ctx.save();
    ctx.translate(0, y);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, l.width, l.height);
    ctx.beginPath();
    ctx.rect(0, 0, l.width, l.height);
    ctx.clip();
    for (const b of l.boxes) drawBox(ctx, b, images, '#000000', '#ffffff');
    ctx.restore();
    y += l.height + GAP;
  }
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('The browser could not encode the PNG.');
  return { blob, missingImages: missing };
}

export async function downloadDocumentPng(doc: RenderedDocumentDto, fileName: string): Promise<{ size: number; missingImages: number }> {
  const { blob, missingImages } = await documentToPngBlob(doc);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return { size: blob.size, missingImages };
}
