/**
 * One ZPL print job (one TCP connection): bytes are framed into commands (tokenizer.ts), each
 * command becomes exactly one debug element and runs on the label machine through the command
 * table; control commands (~HS, ~JA, ...) act the moment they arrive and their replies go back
 * at once. Labels become canvases when their format ends (^XZ).
 *
 * Never throws: an unknown or malformed command is a debug element plus an error message, and
 * framing resumes at the next prefix, so one bad command never cuts a label.
 */
import type { DebugElement, RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import { NO_OUTPUT } from '../canvas/printer-context.ts';
import { toHex } from '../canvas/hex.ts';
import { ErrorList } from '../canvas/error-list.ts';
import { lookupCommand } from './commands.ts';
import type { Dpi } from './fonts.ts';
import { ZplMachine, preview } from './machine.ts';
import { Params } from './params.ts';
import type { ZplIdentity } from './replies.ts';
import { newZplPrinterMemory, type ZplPrinterMemory } from './state.ts';
import { ZplTokenizer, type Token } from './tokenizer.ts';

/** Budgets that keep a document a sane size (a Durable Object holds it whole). */
const MAX_DEBUG_ELEMENTS = 20_000;
const MAX_DRAWN_ELEMENTS = 20_000;

export interface ZplSessionOptions {
  /** The printer's memory (stored formats and graphics, pause) shared by its connections. */
  memory?: ZplPrinterMemory;
  /** Print head density; 203 unless the model says otherwise. */
  dpi?: Dpi;
  /** What ~HI, ~HQ and ^HH report. */
  identity?: Partial<ZplIdentity>;
  maxCanvases?: number;
  maxElements?: number;
}

export function defaultIdentity(dpi: Dpi): ZplIdentity {
  return { model: `ZD421-${dpi === 203 ? 200 : dpi}dpi`, firmware: 'V93.21.26Z', dpi, memoryKb: 8192, serial: 'SLIPSTREAM01', mac: '00:07:4d:00:00:01' };
}

export class ZplSession implements ProtocolSession {
  private readonly tokenizer = new ZplTokenizer();
  private readonly machine: ZplMachine;
  private readonly errors = new ErrorList();
  private bytesReceived = 0;
  private commandCount = 0;
  private debugElements = 0;
  private elided: DebugElement | null = null;
  private lastDebug: DebugElement | null = null;
  private finished: RenderedJob | null = null;

  constructor(getContext: () => PrinterContext, options: ZplSessionOptions = {}) {
    const dpi = options.dpi ?? 203;
    const identity = { ...defaultIdentity(dpi), ...options.identity, dpi };
    this.machine = new ZplMachine(getContext, options.memory ?? newZplPrinterMemory(), identity, {
      maxCanvases: options.maxCanvases ?? 1000,
      maxElements: options.maxElements ?? MAX_DRAWN_ELEMENTS,
    });
  }

  push(bytes: Uint8Array): PushResult {
    if (this.finished) return NO_OUTPUT;
    try {
      this.tokenizer.push(bytes, (t) => this.onToken(t));
    } catch (e) {
      this.internalError(e);
    }
    const replies = this.machine.replies;
    this.machine.replies = [];
    return replies.length ? { replies, events: [] } : NO_OUTPUT;
  }

  contextChanged(): PushResult {
    // A Zebra sends no unsolicited status: hosts poll with ~HS / ~HQES.
    return NO_OUTPUT;
  }

  finish(): RenderedJob {
    if (this.finished) return this.finished;
    try {
      this.tokenizer.flush((t) => this.onToken(t));
      const m = this.machine;
      if (m.format) {
        if (m.storing) this.errors.add('The job ended inside a stored format (^DF without ^XZ): the format is not stored');
        else if (m.format.ops.length > 0 || m.fieldHasContent()) {
          this.errors.add('The job ended without ^XZ: the last format is printed as received');
          m.endFormat();
        }
        m.format = null;
      }
      this.placeLeftovers();
    } catch (e) {
      this.internalError(e);
      this.placeLeftovers();
    }
    for (const e of this.machine.errors) this.errors.add(e);
    if (this.elided) this.errors.setLead(`The job has more than ${MAX_DEBUG_ELEMENTS} commands; the last ${this.elided.lengthInBytes} bytes were processed (labels, replies) but their commands are summarised in one debug element`);
    this.finished = { canvases: this.machine.canvases, errorMessages: this.errors.messages(), bytesReceived: this.bytesReceived };
    return this.finished;
  }

  // ------------------------------------------------------------------------------------------

  private debugFor(t: Token): DebugElement {
    const debug: DebugElement = { type: 'debug', commandRaw: '', commandDescription: [], lengthInBytes: t.bytes.length, debugType: 'command', parameters: {} };
    if (this.debugElements < MAX_DEBUG_ELEMENTS) {
      this.debugElements++;
      debug.commandRaw = toHex(t.bytes);
      this.machine.pending.push(debug);
    } else if (this.elided) {
      this.elided.lengthInBytes += t.bytes.length;
    } else {
      this.elided = { type: 'debug', commandRaw: '', commandDescription: ['…', 'Further commands summarised'], lengthInBytes: t.bytes.length, debugType: 'elided', parameters: {} };
      this.machine.pending.push(this.elided);
    }
    return debug;
  }

  private onToken(t: Token): void {
    this.bytesReceived += t.bytes.length;
    if (t.kind === 'text' && this.lastDebug && /^[\r\n\t ]*$/.test(t.text)) {
      // Line ends after a command belong to it (they are not ZPL, a Zebra skips them).
      this.lastDebug.lengthInBytes += t.bytes.length;
      if (this.lastDebug.commandRaw !== '') this.lastDebug.commandRaw += toHex(t.bytes);
      return;
    }
    const debug = this.debugFor(t);
    this.lastDebug = debug.commandRaw !== '' || !this.elided ? debug : this.elided;
    if (t.kind === 'text') {
      const visible = t.text.replace(/[\r\n\t \u0000]/g, '');
      debug.debugType = 'ignored';
      debug.commandDescription = ['Data', visible ? `Not in a command: "${preview(t.text)}" (ignored)` : 'Line ends between commands'];
      if (visible) this.errors.add(`Data outside any command ignored: "${preview(t.text)}"`);
      return;
    }
    this.commandCount++;
    const m = this.machine;
    const prefixChar = t.prefix === 'format' ? '^' : '~';
    const id = `${prefixChar}${t.code}`;
    debug.parameters = t.params ? { parameters: preview(t.params, 120) } : {};
    if (!t.complete) {
      debug.debugType = 'truncated';
      debug.commandDescription = [id || prefixChar, 'Command cut off by the end of the job'];
      this.errors.add(`${id || prefixChar}: the job ended inside this command`);
      return;
    }
    const entry = t.code ? lookupCommand(t.prefix, t.code) : undefined;
    if (!entry) {
      debug.debugType = 'unknown';
      debug.commandDescription = [id || prefixChar, t.code ? 'Unknown command (ignored)' : 'Prefix without a command'];
      this.errors.add(t.code ? `Unknown command ${id} (ignored)` : `A ${prefixChar} without a command (ignored)`);
      return;
    }
    // Inside ^DF every format command is stored (control commands still act at once).
    if (m.storing && t.prefix === 'format' && t.code !== 'XZ' && t.code !== 'XA') {
      m.storeCommand({ prefix: t.prefix, code: t.code, params: t.params, binary: t.binary, delimiter: String.fromCharCode(this.tokenizer.prefixes.delimiter) }, t.bytes.length);
      debug.commandDescription = [id, `${entry.summary} (stored in the format)`];
      return;
    }
    m.current = { debug, command: id };
    const outcome = entry.run(m, new Params(t.params, String.fromCharCode(this.tokenizer.prefixes.delimiter)), { params: t.params, binary: t.binary });
    debug.commandDescription = [id, outcome.text || entry.summary];
    if (outcome.kind && outcome.kind !== 'command') debug.debugType = outcome.kind;
    if (outcome.error) {
      if (debug.debugType === 'command') debug.debugType = 'error';
      this.errors.add(`${id} (command ${this.commandCount}): ${outcome.error}`);
    }
  }

  /** Debug elements after the last label go into it (or into an empty canvas of their own). */
  private placeLeftovers(): void {
    const m = this.machine;
    if (m.pending.length === 0) return;
    const last = m.canvases[m.canvases.length - 1];
    if (last) last.items.push(...m.pending);
    else {
      const ctx = m.getContext();
      m.canvases.push({ widthInDots: Math.max(1, m.settings.printWidth ?? ctx.widthInDots), heightInDots: m.settings.labelLength ?? ctx.heightInDots, items: m.pending });
    }
    m.pending = [];
  }

  private internalError(e: unknown): void {
    this.errors.add(`Internal error while reading the job: ${e instanceof Error ? e.message : String(e)}`);
  }
}
