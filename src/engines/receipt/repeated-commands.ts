import { toHex } from '../core/hex.ts';
import { mnemonic } from '../core/mnemonic.ts';

/** A short command as the job last described it. */
interface Described {
  /** Its hex (`commandRaw`). */
  raw: string;
  /** Its mnemonic, e.g. "ESC E 1" (made with its first description). */
  name: string | null;
  /** The outcome's text its description was last made with, and that description. */
  text: string | null;
  description: readonly string[] | null;
}

/** Commands up to this many bytes are remembered (LF, ESC E 1, GS ! 17: what a receipt repeats). */
const MAX_BYTES = 3;

/**
 * The hex, mnemonic and description of the short commands of one job, made once per distinct
 * command and outcome: a receipt's 70 `ESC E 1` get one hex string and one description array,
 * shared by their debug elements (nothing changes an element's description after it is made).
 * The job's elements then hold a few strings instead of three per command, which the engine
 * does not build again, garbage collection does not copy and the document builder does not
 * hash again (services/compact-body.ts).
 */
export class RepeatedCommands {
  private readonly byKey = new Map<number, Described>();

  constructor(private readonly prefixBytes: Uint8Array) {}

  /** The command's hex: remembered for a short command, made for a longer one. */
  raw(bytes: Uint8Array): string {
    const d = this.described(bytes);
    return d ? d.raw : toHex(bytes);
  }

  /**
   * The command's description lines: its mnemonic of its first `header` bytes, then `text`
   * (the same bytes are always the same command, so the same header).
   */
  description(bytes: Uint8Array, header: number, text: string): string[] {
    const d = this.described(bytes);
    if (!d) return [mnemonic(bytes, header, this.prefixBytes), text];
    if (d.text !== text || !d.description) {
      d.name ??= mnemonic(bytes, header, this.prefixBytes);
      d.text = text;
      d.description = [d.name, text];
    }
    return d.description as string[];
  }

  private described(bytes: Uint8Array): Described | null {
    const n = bytes.length;
    if (n > MAX_BYTES) return null;
    const key = (n << 24) | ((n > 0 ? bytes[0] : 0) << 16) | ((n > 1 ? bytes[1] : 0) << 8) | (n > 2 ? bytes[2] : 0);
    let d = this.byKey.get(key);
    if (d === undefined) {
      d = { raw: toHex(bytes), name: null, text: null, description: null };
      this.byKey.set(key, d);
    }
    return d;
  }
}
