/** Graphics: direct write (GW), stored PCX graphics (GM, GG, GK, GI). */
import { decodePcx, gwBitmap } from '../graphics.ts';
import { quotedName } from '../params.ts';
import { listingReply } from '../replies.ts';
import { latin1 } from '../tokenizer.ts';
import { int } from '../params.ts';
import { control, draw, inRange, MAX_DOTS, none, refuse, type EplFamily } from './define.ts';

export const GRAPHICS: EplFamily = [
  draw({
    name: 'GW', summary: 'Direct graphic write', group: 'graphics', takesParameters: true,
    parse(_rest, t, src) {
      if (t.binaryStart === undefined) return refuse('expected GWx,y,widthBytes,height, followed by the raster data');
      const p = latin1(t.bytes, 2, t.textEnd).split(',').map(int);
      if (!inRange(p[0]) || !inRange(p[1]) || !inRange(p[2], 0, 4096) || !inRange(p[3], 0, MAX_DOTS)) return refuse('graphic position or size out of range');
      const bitmap = gwBitmap(p[2], p[3], t.bytes.subarray(t.binaryStart, t.binaryEnd));
      return { op: { kind: 'graphic', x: p[0], y: p[1], bitmap, src }, description: `Graphic at (${p[0]},${p[1]}), ${p[2] * 8}x${p[3]} dots` };
    },
  }),
  draw({
    name: 'GG', summary: 'Print stored graphic', group: 'graphics', takesParameters: true,
    parse(rest, _t, src) {
      const m = /^\s*(\d+)\s*,\s*(\d+)\s*,\s*"([^"]*)"\s*$/.exec(rest);
      if (!m) return refuse('expected x,y,"NAME"');
      const x = Number(m[1]), y = Number(m[2]);
      if (!inRange(x) || !inRange(y)) return refuse('position out of range');
      return { op: { kind: 'storedGraphic', x, y, name: m[3], src }, description: `Stored graphic "${m[3]}" at (${x},${y})` };
    },
  }),
  control({
    name: 'GM', summary: 'Store graphic (PCX)', group: 'graphics', takesParameters: true,
    parse(rest, t) {
      const m = /^\s*"([^"]*)"\s*,?\s*(\d+)\s*$/.exec(rest);
      if (!m || t.binaryStart === undefined) return refuse('expected GM"NAME"size followed by the PCX data');
      return { name: m[1], pcx: t.bytes.subarray(t.binaryStart, t.binaryEnd) };
    },
    run(session, { name, pcx }) {
      if (session.graphics.has(name)) return refuse(`graphic "${name}" already exists (delete it with GK first)`, '08');
      const decoded = decodePcx(pcx);
      if (!decoded.ok) return refuse(`graphic "${name}": ${decoded.error}`);
      session.graphics.set(name, decoded.bitmap);
      return { text: `Store graphic "${name}" (${decoded.bitmap.width}x${decoded.bitmap.height} dots)` };
    },
  }),
  control({
    name: 'GK', summary: 'Delete stored graphic', group: 'graphics', takesParameters: true,
    parse: (rest) => quotedName(rest) ?? refuse('expected a graphic name in quotes'),
    run(session, name) {
      if (name === '*') {
        const n = session.graphics.size;
        session.graphics.clear();
        return { text: `Delete all graphics (${n})` };
      }
      return { text: session.graphics.delete(name) ? `Delete graphic "${name}"` : `Delete graphic "${name}" (not stored)` };
    },
  }),
  control({
    name: 'GI', summary: 'List stored graphics', group: 'graphics', takesParameters: false, parse: none,
    run(session) {
      session.reply(listingReply('Graphics', [...session.graphics.keys()], session.graphicBytes()));
      return { text: `List graphics (answered, ${session.graphics.size} stored)` };
    },
  }),
];
