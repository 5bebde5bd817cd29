/**
 * GS ( Q with Slipstream's functions 0x42 / 0x45 (begin / end a vertical ruled line in standard
 * mode). Epson defines GS ( Q only for drawing in page mode (functions 48 and 49) and has no
 * command for the vertical lines ePOS-Print's `vline-begin` / `vline-end` draw down a receipt;
 * the ePOS-Print translator sends them as these functions so that the receipt machine, which
 * alone knows where the paper is, draws them.
 *
 *   GS ( Q pL pH fn xL xH s    fn 0x42 begin, 0x45 end; x dots from the print area's left edge;
 *                              s thickness in dots (1..8), +0x10 for a double line.
 */
import type { Outcome } from '../../core/commands.ts';
import type { EscPosMachine } from '../machine.ts';

export const VERTICAL_RULE_BEGIN = 0x42;
export const VERTICAL_RULE_END = 0x45;
export const VERTICAL_RULE_DOUBLE = 0x10;

export function verticalRule(m: EscPosMachine, b: Uint8Array, raw: string): Outcome {
  const fn = b[5];
  if ((fn !== VERTICAL_RULE_BEGIN && fn !== VERTICAL_RULE_END) || b.length < 9) return { text: 'Graphic drawing in page mode (not emulated)' };
  const left = Math.min(m.modes.leftMargin, m.width - 1);
  const x = left + b[6] + b[7] * 256;
  const thickness = b[8] & 0x0f, double = (b[8] & VERTICAL_RULE_DOUBLE) !== 0;
  if (thickness < 1 || thickness > 8) return { text: `Vertical line: thickness ${thickness}`, kind: 'malformed', error: `vertical line thickness ${thickness} (1 to 8)` };
  const style = `${thickness} dot${thickness > 1 ? 's' : ''}${double ? ', double' : ''}`;
  if (fn === VERTICAL_RULE_BEGIN) {
    m.verticalRules.begin(x, { thickness, double }, m.src(raw, ['GS ( Q', `Vertical line at x ${x}, ${style}`], b.length));
    return { text: `Begin a vertical line at x ${x} (${style})` };
  }
  if (!m.verticalRules.end(x)) return { text: `End a vertical line at x ${x}: none was begun there`, kind: 'malformed', error: `no vertical line begun at x ${x}` };
  return { text: `End the vertical line at x ${x}` };
}
