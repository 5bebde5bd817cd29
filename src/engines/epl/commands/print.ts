/** Printing the image buffer: P (print) and PA (print automatic). */
import { int, splitParams } from '../params.ts';
import { control, inRange, type EplFamily } from './define.ts';

/** `P labels[,copies]`: how many label sets, and copies of each (1-65535). */
const print = (name: 'P' | 'PA', summary: string) =>
  control<{ sets: number; copies: number }>({
    name, summary, group: 'print', takesParameters: true,
    parse(rest) {
      const p = splitParams(rest);
      const sets = p[0] === undefined || p[0] === '' ? 1 : int(p[0]);
      const copies = p[1] === undefined || p[1] === '' ? 1 : int(p[1]);
      if (inRange(sets, 1, 65535) && inRange(copies, 1, 65535) && p.length <= 2) return { sets, copies };
      return { refused: 'expected P labels[,copies] (1-65535)', message: `${name}${rest}: expected labels[,copies] between 1 and 65535` };
    },
    run: (session, { sets, copies }) => session.print(sets, copies),
  });

export const PRINT: EplFamily = [print('P', 'Print'), print('PA', 'Print automatic')];
