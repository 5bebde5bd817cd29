/**
 * zint (Debian's `zint` package: libzint by Robin Stuart, an encoder nobody here wrote and
 * that shares no code with bwip-js) as the oracle for symbologies no available decoder reads:
 * what zint encodes for the same data and options must be what our printers draw.
 *
 * `zint --dump` prints each row of the symbol as hex, one bit per module (1 = dark). CI
 * installs zint in `.ci/run`; on a developer machine `apt-get install zint`.
 */
import { execFileSync } from 'node:child_process';

/** The zint symbologies the tests compare with (zint's own names, `zint -t` lists them). */
export type ZintSymbology =
  | 'CODE11' | 'C25IND' | 'MSI_PLESSEY' | 'PLESSEY'
  | 'POSTNET' | 'PLANET' | 'USPS_IMAIL'
  | 'CODE49' | 'CODABLOCKF';

/** The rows of the symbol zint encodes, each a string of '1' (dark) and '0' modules. */
export function zintRows(symbology: ZintSymbology, data: string, args: string[] = []): string[] {
  let out: string;
  try {
    out = execFileSync('zint', [`--barcode=${symbology}`, '--dump', ...args, `--data=${data}`], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { stderr?: string };
    if (err.code === 'ENOENT') throw new Error('zint is not installed: `apt-get install zint` (.ci/run installs it)');
    throw new Error(`zint ${symbology} "${data}" ${args.join(' ')}: ${err.stderr?.trim() ?? err.message}`);
  }
  return out.trim().split('\n').map((line) => line.trim().split(/\s+/).map((hex) => parseInt(hex, 16).toString(2).padStart(hex.length * 4, '0')).join(''));
}
