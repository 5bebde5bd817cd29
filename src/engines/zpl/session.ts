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
import { toHex } from '../core/hex.ts';
import { LabelJob } from '../label/index.ts';
import type { PrinterModel } from '../models/index.ts';
import { charset } from './charsets.ts';
import { lookupCommand, type Outcome } from './commands/index.ts';
import type { Dpi } from './fonts.ts';
import { ZplMachine, preview } from './machine.ts';
import { Params } from './params.ts';
import type { ZplIdentity } from './replies.ts';
import { newZplPrinterMemory, type ZplPrinterMemory } from './state.ts';
import { ZplTokenizer, type Token } from './tokenizer.ts';

export interface ZplSessionOptions {
  /** The printer's memory (stored formats and graphics, pause) shared by its connections. */
  memory?: ZplPrinterMemory;
  /** Print head density; the model's (context `model.dpi`), else 203. */
  dpi?: Dpi;
  /** What ~HI, ~HQ and ^HH report. */
  identity?: Partial<ZplIdentity>;
  maxCanvases?: number;
  maxElements?: number;
  /** The real-time clock for ^FC fields (tests pin it). */
  now?: () => Date;
}

export function defaultIdentity(dpi: Dpi): ZplIdentity {
  return { model: `ZD421-${dpi === 203 ? 200 : dpi}dpi`, firmware: 'V93.21.26Z', dpi, memoryKb: 8192, serial: 'SLIPSTREAM01', mac: '00:07:4d:00:00:01' };
}

/** The printer model's density and identity, when the printer object passes its model. */
function modelIdentity(ctx: PrinterContext): { model?: PrinterModel; dpi?: Dpi; identity?: Partial<ZplIdentity> } {
  const model = ctx.model;
  if (!model) return {};
  const dpi: Dpi = model.dpi >= 600 ? 600 : model.dpi >= 300 ? 300 : 203;
  return { model, dpi, identity: { model: model.identity.modelName, firmware: model.identity.firmware } };
}

export class ZplSession implements ProtocolSession {
  private readonly tokenizer = new ZplTokenizer();
  private readonly machine: ZplMachine;
  private readonly job: LabelJob;
  private commandCount = 0;
  private lastDebug: DebugElement | null = null;
  private finished: RenderedJob | null = null;

  constructor(getContext: () => PrinterContext, options: ZplSessionOptions = {}) {
    const fromModel = modelIdentity(getContext());
    const dpi = options.dpi ?? fromModel.dpi ?? 203;
    const identity = { ...defaultIdentity(dpi), ...fromModel.identity, ...options.identity, dpi };
    this.job = new LabelJob({ maxCanvases: options.maxCanvases, maxElements: options.maxElements });
    this.machine = new ZplMachine(getContext, options.memory ?? newZplPrinterMemory(), identity, this.job);
    this.machine.prefixes = this.tokenizer.prefixes;
    if (options.now) this.machine.now = options.now;
    if (fromModel.model) {
      this.machine.model = fromModel.model;
      this.machine.settings.charset = charset(0, fromModel.model, getContext().multiByteEncoding);
    }
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

  workSpent(): number {
    return this.job.workSpent;
  }

  /** The job is finished on the first call; its label images are then encoded in bounded steps. */
  finishStep(): boolean {
    this.finish();
    return this.job.encodeStep();
  }

  finish(): RenderedJob {
    if (this.finished) return this.finished;
    const m = this.machine;
    try {
      this.tokenizer.flush((t) => this.onToken(t));
      if (m.format) {
        if (m.storing) this.job.errors.add('The job ended inside a stored format (^DF without ^XZ): the format is not stored');
        else if (m.format.ops.length > 0 || m.fieldHasContent()) {
          this.job.errors.add('The job ended without ^XZ: the last format is printed as received');
          m.endFormat();
        }
        m.format = null;
      }
    } catch (e) {
      this.internalError(e);
    }
    const ctx = m.getContext();
    this.job.closePending(() => ({ widthInDots: Math.max(1, m.settings.printWidth ?? ctx.widthInDots), heightInDots: m.settings.labelLength ?? ctx.heightInDots }));
    this.finished = this.job.finish();
    return this.finished;
  }

  // ------------------------------------------------------------------------------------------

  private onToken(t: Token): void {
    if (t.kind === 'text' && this.lastDebug && this.lastDebug.commandRaw !== '' && /^[\r\n\t ]*$/.test(t.text)) {
      // Line ends after a command belong to it (they are not ZPL, a Zebra skips them).
      this.lastDebug.lengthInBytes += t.bytes.length;
      this.lastDebug.commandRaw += toHex(t.bytes);
      this.job.bytesReceived += t.bytes.length;
      return;
    }
    const debug = this.job.line(t.bytes);
    this.lastDebug = debug;
    if (t.kind === 'text') {
      const visible = t.text.replace(/[\r\n\t \u0000]/g, '');
      debug.debugType = 'ignored';
      debug.commandDescription = ['Data', visible ? `Not in a command: "${preview(t.text)}" (ignored)` : 'Line ends between commands'];
      if (visible) this.job.errors.add(`Data outside any command ignored: "${preview(t.text)}"`);
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
      this.job.errors.add(`${id || prefixChar}: the job ended inside this command`);
      return;
    }
    const entry = t.code ? lookupCommand(t.prefix, t.code) : undefined;
    if (!entry) {
      debug.debugType = 'unknown';
      debug.commandDescription = [id || prefixChar, t.code ? 'Unknown command (ignored)' : 'Prefix without a command'];
      this.job.errors.add(t.code ? `Unknown command ${id} (ignored)` : `A ${prefixChar} without a command (ignored)`);
      return;
    }
    // Inside ^DF every format command is stored (control commands still act at once).
    if (m.storing && t.prefix === 'format' && t.code !== 'XZ' && t.code !== 'XA') {
      m.storeCommand({ prefix: t.prefix, code: t.code, params: t.params, binary: t.binary, delimiter: String.fromCharCode(this.tokenizer.prefixes.delimiter) }, t.bytes.length);
      debug.commandDescription = [id, `${entry.summary} (stored in the format)`];
      return;
    }
    m.current = { debug, command: id };
    if (t.prefix === 'format' && t.code !== 'XA' && t.code !== 'XZ') m.countCommand();
    let outcome: Outcome;
    try {
      outcome = entry.run(m, new Params(t.params, String.fromCharCode(this.tokenizer.prefixes.delimiter)), { params: t.params, binary: t.binary });
    } catch (e) {
      // A handler that fails costs its own command, never the rest of the chunk.
      outcome = { text: entry.summary, kind: 'malformed', error: `could not run: ${e instanceof Error ? e.message : String(e)}` };
    }
    debug.commandDescription = [id, outcome.text || entry.summary];
    if (outcome.kind && outcome.kind !== 'command') debug.debugType = outcome.kind;
    if (outcome.error) {
      if (debug.debugType === 'command') debug.debugType = 'error';
      this.job.errors.add(`${id} (command ${this.commandCount}): ${outcome.error}`);
    }
  }

  private internalError(e: unknown): void {
    this.job.errors.add(`Internal error while reading the job: ${e instanceof Error ? e.message : String(e)}`);
  }
}
