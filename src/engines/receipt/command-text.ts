import { toHex } from '../core/hex.ts';
import { mnemonic } from '../core/mnemonic.ts';

/** Commands up to this many bytes are remembered (LF, ESC E 1, GS ! 17: what a receipt repeats). */
const MAX_BYTES = 3;

/**
 * A command's hex (`commandRaw`) and description lines, made once per job for a short command
 * and outcome: a receipt's 70 `ESC E 1` get one hex string and one description array, shared
 * by their debug elements (nothing changes an element's description after it is made). A job's
 * elements then hold a few strings instead of three per command, which the engine does not
 * build again, garbage collection does not copy and the document builder does not hash again
 * (services/compact-body.ts).
 */
export class CommandText {
  private readonly raw: string;
  /** The mnemonic ("ESC E 1"), made with the first description. */
  private name: string | null = null;
  /** The outcome's text the description was last made with, and that description. */
  private text: string | null = null;
  private description: string[] | null = null;

  private constructor(private readonly bytes: Uint8Array) {
    this.raw = toHex(bytes);
  }

  /** The command's hex. */
  hex(): string {
    return this.raw;
  }

  /**
   * Its description lines: the mnemonic of its first `header` bytes, then `text` (the same
   * bytes are always the same command, so the same header).
   */
  describe(header: number, text: string, prefixBytes: Uint8Array): string[] {
    if (this.text !== text || !this.description) {
      this.name ??= mnemonic(this.bytes, header, prefixBytes);
      this.text = text;
      this.description = [this.name, text];
    }
    return this.description;
  }

  /** A job's short commands met so far, by their bytes. */
  static table(): Map<number, CommandText> {
    return new Map();
  }

  /** The command's text from `table`, or null for a command too long to be remembered. */
  static of(table: Map<number, CommandText>, bytes: Uint8Array): CommandText | null {
    const n = bytes.length;
    if (n > MAX_BYTES) return null;
    const key = (n << 24) | ((n > 0 ? bytes[0] : 0) << 16) | ((n > 1 ? bytes[1] : 0) << 8) | (n > 2 ? bytes[2] : 0);
    let t = table.get(key);
    if (t === undefined) table.set(key, (t = new CommandText(bytes.slice())));
    return t;
  }
}
