/**
 * Command tables for byte-stream protocols (ESC/POS, Star): every command is ONE entry that
 * carries its bytes (prefix), its length parser, its description and its handler. There are
 * no string ids joining a table to a switch, so a command without a handler, or a handler
 * without a command, does not compile; two entries with the same prefix throw when the table
 * is built (at module load, so every test catches it).
 */

/**
 * A command's length parser: given the first `n` bytes received so far (at least the
 * prefix), the total length it needs. A value greater than `n` means "wait for that many
 * bytes, then ask again" (header fields decide the data length); a value not greater than
 * `n` means complete. `NUL_TERMINATED` means the command ends at the next NUL byte. Each
 * answer must be computed from a bounded number of header bytes so framing stays linear.
 */
export type LenFn = (b: Uint8Array, n: number) => number;

export const NUL_TERMINATED = -1;
/** NUL-terminated data longer than this is cut off (malformed) rather than buffered forever. */
export const MAX_NUL_TERMINATED = 1024;

/** What a handler reports about the command it ran (becomes its debug element). */
export interface Outcome {
  /** Second line of the debug element's description, e.g. "Emphasized on". */
  text: string;
  /** 'command' (default) is fine; the others also add an error message. */
  kind?: 'command' | 'malformed' | 'unknown';
  /** An error message for the document (a 'command' with an error was not executed). */
  error?: string;
  params?: Record<string, string>;
}

export interface CommandEntry<M> {
  /** The bytes that identify the command: one control byte, or a prefix byte and one more. */
  prefix: readonly [number] | readonly [number, number];
  /** The command's name in manuals, e.g. "ESC E" (shown before its description). */
  name: string;
  /** What the command does, as the manual names it (the command reference and docs). */
  summary: string;
  length: LenFn;
  /** Leading bytes shown in the mnemonic (header, not image data). Default 12. */
  header?: number;
  /** Runs the command on the machine; `raw` is the command's hex for drawn elements. */
  run(machine: M, b: Uint8Array, raw: string): Outcome;
}

/** A family of commands (one small file each). */
export type CommandFamily<M> = readonly CommandEntry<M>[];

export const fixed = (k: number): LenFn => () => k;
/** `<prefix of p bytes> pL pH data(pL + pH*256)`: GS ( x, ESC ( x, FS ( x. */
export const pLpH = (p: number): LenFn => (b, n) => (n < p + 2 ? p + 2 : p + 2 + b[p] + b[p + 1] * 256);

/** The parameter byte after a two-byte prefix (0 when absent). */
export const arg = (b: Uint8Array, i = 2): number => (b.length > i ? b[i] : 0);

/**
 * The lookup structure the framer uses: single control bytes, and for each prefix byte
 * (ESC, GS, ...) a 256-entry table of second bytes. Unknown sequences get the protocol's
 * `unknown` entries (which report themselves as unknown).
 */
export class CommandTable<M> {
  private readonly single: (CommandEntry<M> | undefined)[] = new Array(256);
  private readonly prefixed: (CommandEntry<M> | undefined)[][] = new Array(256);
  /** Bytes that start a multi-byte command. */
  readonly prefixBytes = new Uint8Array(256);

  constructor(
    families: readonly CommandFamily<M>[],
    readonly unknownSingle: CommandEntry<M>,
    readonly unknownPrefixed: CommandEntry<M>,
  ) {
    for (const family of families) {
      for (const e of family) {
        if (e.prefix.length === 1) {
          if (this.single[e.prefix[0]]) throw new Error(`Two commands for byte ${e.prefix[0]}: ${this.single[e.prefix[0]]!.name}, ${e.name}`);
          this.single[e.prefix[0]] = e;
        } else {
          const [p, s] = e.prefix;
          const t = (this.prefixed[p] ??= new Array(256));
          if (t[s]) throw new Error(`Two commands for ${e.name}: ${t[s]!.name}`);
          t[s] = e;
          this.prefixBytes[p] = 1;
        }
      }
    }
  }

  /** The entry for a single control byte (not a prefix byte). */
  control(b: number): CommandEntry<M> {
    return this.single[b] ?? this.unknownSingle;
  }

  /** The entry for a prefix byte and the byte after it. */
  lookup(first: number, second: number): CommandEntry<M> {
    return this.prefixed[first]?.[second] ?? this.unknownPrefixed;
  }

  /** Every entry (for docs and tests). */
  entries(): CommandEntry<M>[] {
    const out: CommandEntry<M>[] = [];
    for (const e of this.single) if (e) out.push(e);
    for (const t of this.prefixed) if (t) for (const e of t) if (e) out.push(e);
    return out;
  }
}
