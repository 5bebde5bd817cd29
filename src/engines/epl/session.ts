/**
 * One EPL2 print job (one TCP connection): tokens in, each line looked up in the command table
 * (table.ts; the commands, their parsers and handlers are in commands/*.ts) and carried out
 * against the label state, canvases out. Each printed label copy (P n,m) becomes one canvas;
 * every token becomes exactly one debug element, placed in the canvas of the first label it
 * contributed to.
 */
import type { DebugElement, RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import type { Bitmap } from '../raster/bitmap.ts';
import { isRefusal, type Done, type EplCommand, type Refusal } from './commands/define.ts';
import { display } from './display.ts';
import { renderOps, type RenderEnv } from './render.ts';
import { layoutLabel } from '../label/geometry.ts';
import { LabelJob, type RenderedLabel } from '../label/job.ts';
import type { LabelPrinterMemory } from '../label/memory.ts';
import { configurationReply, errorReport, flagCodes, type ErrorReporting } from './replies.ts';
import { defaultSetup, type CounterDef, type Form, type LabelSetup, type Op, type OpSource, type VariableDef } from './state.ts';
import { EPL_COMMANDS } from './table.ts';
import { EplTokenizer, latin1, type Token } from './tokenizer.ts';
import { FieldStore } from './variables.ts';

export interface EplSessionOptions {
  /** Clock for TT / TD fields (tests pin it). */
  now?: () => Date;
  /** Most canvases one job may produce (P n,m beyond it is cut and reported). Default 1000. */
  maxCanvases?: number;
  /** Most drawn elements one job may produce. Default 20000. */
  maxElements?: number;
  /** Rendering work one job may spend (src/engines/core/budget.ts). */
  maxCost?: number;
  /**
   * The printer's memory for forms (FS) and graphics (GM). A real printer keeps them across
   * connections, so the printer passes the same object to every session; without it they
   * live for this session only.
   */
  memory?: EplPrinterMemory;
}

/** EPL's stored memory: label forms (FS ... FE) and PCX graphics (GM), by name. */
export type EplPrinterMemory = LabelPrinterMemory<Form>;

export function newEplPrinterMemory(): EplPrinterMemory {
  return { forms: new Map(), graphics: new Map() };
}

/** Outcome of interpreting one line. */
interface LineResult {
  debugType: string;
  description: string;
  parameters?: Record<string, string>;
  /** Error message for errorMessages (prefixed with the line number by the caller). */
  error?: string;
  /** EPL error code to latch for ^ee / US reporting. */
  code?: string;
}

export class EplSession implements ProtocolSession {
  private readonly tokenizer = new EplTokenizer();
  readonly getContext: () => PrinterContext;
  private readonly now: () => Date;

  // The label state the command handlers (commands/*.ts) work on.
  setup: LabelSetup = defaultSetup();
  private buffer: Op[] = [];
  private readonly printedOps = new WeakSet<Op>();
  readonly forms: Map<string, Form>;
  readonly graphics: Map<string, Bitmap>;
  private readonly fields = new FieldStore();
  /** Form being stored (FS ... FE). */
  storing: Form | null = null;
  /** Form retrieved by FR (its fields take the `?` data). */
  activeForm: Form | null = null;
  /** Fields still waiting for a data line after `?`. */
  awaitingData: Array<VariableDef | CounterDef> = [];
  readonly reporting: ErrorReporting = { enabled: false, char: '\u0015', mode: 0 };

  /** The label machine's document: debug elements, printed labels, budgets, errors. */
  private readonly job: LabelJob;
  private line = 0;
  private latched: string[] = [];
  private replies: Uint8Array[] = [];
  private lastFlagCodes: string[];
  private finished: RenderedJob | null = null;

  constructor(getContext: () => PrinterContext, options: EplSessionOptions = {}) {
    this.getContext = getContext;
    this.now = options.now ?? (() => new Date());
    this.forms = options.memory?.forms ?? new Map();
    this.graphics = options.memory?.graphics ?? new Map();
    this.job = new LabelJob({ maxCanvases: options.maxCanvases, maxElements: options.maxElements, maxCost: options.maxCost });
    this.lastFlagCodes = this.safeFlagCodes();
  }

  push(bytes: Uint8Array): PushResult {
    if (this.finished) return { replies: [], events: [] };
    this.replies = [];
    try {
      this.tokenizer.push(bytes, (t) => this.onToken(t));
    } catch (e) {
      // Never throw: account the bytes of the chunk that failed as one error element.
      this.internalError(e);
    }
    const replies = this.replies;
    this.replies = [];
    return { replies, events: [] };
  }

  contextChanged(): PushResult {
    const codes = this.safeFlagCodes();
    const fresh = codes.filter((c) => !this.lastFlagCodes.includes(c));
    this.lastFlagCodes = codes;
    if (!this.reporting.enabled || fresh.length === 0) return { replies: [], events: [] };
    return { replies: fresh.map((c) => errorReport(this.reporting, c)), events: [] };
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
    try {
      this.tokenizer.flush((t) => this.onToken(t));
    } catch (e) {
      this.internalError(e);
    }
    this.finishPending();
    this.finished = this.job.finish();
    return this.finished;
  }

  // ------------------------------------------------------------------------------------------
  // Tokens and lines

  private onToken(t: Token): void {
    this.line++;
    const text = latin1(t.bytes, 0, t.textEnd);
    // Past the line budget the line is still interpreted (labels print, replies are sent),
    // but its debug element is folded into one summary so the document stays a sane size.
    const debug = this.job.line(t.bytes);
    let r: LineResult;
    try {
      r = this.interpret(text, t, debug);
    } catch (e) {
      r = { debugType: 'malformed', description: 'Could not be interpreted', error: `internal error: ${e instanceof Error ? e.message : String(e)}`, code: '01' };
    }
    const shown = t.binaryStart !== undefined ? `${display(text)}<${(t.binaryEnd ?? t.binaryStart) - t.binaryStart} bytes>` : display(text);
    debug.debugType = r.debugType;
    debug.commandDescription = [shown, r.description];
    if (r.parameters) debug.parameters = r.parameters;
    if (r.error) this.error(r.error, r.code ?? '01');
  }

  private addError(message: string): void {
    this.job.errors.add(message);
  }

  private error(message: string, code: string): void {
    this.addError(`Line ${this.line}: ${message}`);
    this.latch(code);
  }

  private latch(code: string): void {
    if (!this.latched.includes(code)) this.latched.push(code);
    if (this.reporting.enabled) this.replies.push(errorReport(this.reporting, code));
  }

  private internalError(e: unknown): void {
    this.addError(`Internal error: ${e instanceof Error ? e.message : String(e)}`);
  }

  /** Queue a reply to the host (sent when the pushed chunk has been read). */
  reply(bytes: Uint8Array): void {
    this.replies.push(bytes);
  }

  /** ^ee: the printer's current and latched error codes; the latched ones are cleared. */
  takeErrorCodes(): string[] {
    const codes = [...this.safeFlagCodes(), ...this.latched];
    this.latched = [];
    return codes;
  }

  private safeFlagCodes(): string[] {
    try {
      return flagCodes(this.getContext().flags);
    } catch {
      return [];
    }
  }

  private interpret(text: string, t: Token, debug: DebugElement): LineResult {
    // Data lines after `?` belong to the retrieved form's variables and counters.
    if (this.awaitingData.length > 0) {
      const field = this.awaitingData.shift()!;
      const value = text;
      this.fields.setValue(field, value);
      const label = field.kind === 'variable' ? `V${String(field.index).padStart(2, '0')}` : `C${field.index}`;
      return { debugType: 'variableData', description: `Value of ${label}${field.prompt ? ` (${field.prompt})` : ''}: "${display(value)}"`, parameters: { field: label, value } };
    }
    if (!t.complete && t.binaryStart !== undefined) {
      return { debugType: 'truncated', description: 'Graphic data cut short by the end of the job', error: `${text.slice(0, 2)} graphic data truncated: the job ended before the declared number of bytes arrived`, code: '03' };
    }
    if (text.trim() === '') {
      return { debugType: 'blank', description: t.bytes.length === 0 ? 'Empty' : 'Blank line' };
    }
    const found = EPL_COMMANDS.identify(text);
    if (!found) {
      return { debugType: 'unknown', description: 'Unknown command', error: `unknown command "${display(text.slice(0, 20))}"`, code: '01' };
    }
    const { entry, rest } = found;
    const src: OpSource = { debug, line: this.line, command: entry.name };
    return this.storing ? this.storeInForm(this.storing, entry, rest, t, src) : this.execute(entry, rest, t, src);
  }

  // ------------------------------------------------------------------------------------------
  // Commands: the table entry's parser, then its handler (by the entry's kind)

  private execute(entry: EplCommand, rest: string, t: Token, src: OpSource): LineResult {
    switch (entry.kind) {
      case 'draw': {
        const op = entry.parse(rest, t, src);
        if (isRefusal(op)) return refused(entry, op);
        this.stamp(op.op);
        this.buffer.push(op.op);
        return { debugType: 'command', description: op.description };
      }
      case 'setup': {
        const p = entry.parse(rest);
        if (isRefusal(p)) return refusedSetup(entry, rest, p);
        const done = entry.apply(this.setup, p);
        entry.live?.(this);
        return ok(done);
      }
      case 'field': {
        const def = entry.parse(rest);
        if (isRefusal(def)) return refused(entry, def);
        this.fields.define(def);
        return { debugType: 'command', description: `${entry.summary} outside a form (defined for this session)` };
      }
      case 'control': {
        const p = entry.parse(rest, t);
        if (isRefusal(p)) return refused(entry, p);
        const done = entry.run(this, p);
        return isRefusal(done) ? refused(entry, done) : ok(done);
      }
    }
  }

  /** Inside FS ... FE: drawing and setup commands are stored, V and C define fields, FE ends. */
  private storeInForm(form: Form, entry: EplCommand, rest: string, t: Token, src: OpSource): LineResult {
    if (entry.kind === 'control' && entry.endsForm) return this.execute(entry, rest, t, src);
    form.sizeInBytes += t.bytes.length;
    const where = ` (stored in form "${form.name}")`;
    switch (entry.kind) {
      case 'draw': {
        const op = entry.parse(rest, t, src);
        if (isRefusal(op)) return refused(entry, op, `${entry.name} in form "${form.name}": ${op.refused}`);
        this.stamp(op.op);
        form.ops.push(op.op);
        return { debugType: 'command', description: `${op.description}${where}` };
      }
      case 'setup': {
        // Checked now, applied to the label setup when the form is retrieved.
        const p = entry.parse(rest);
        if (isRefusal(p)) return refusedSetup(entry, rest, p);
        const done = entry.apply(defaultSetup(), p);
        if (entry.storedInForm !== false) form.setup.push((s) => void entry.apply(s, p));
        return { debugType: 'command', description: `${done.text}${where}` };
      }
      case 'field': {
        const def = entry.parse(rest);
        if (isRefusal(def)) return refused(entry, def);
        form.fields.push(def);
        return { debugType: 'command', description: `${entry.describe(def)} (form "${form.name}")` };
      }
      case 'control':
        return {
          debugType: 'malformed',
          description: `${entry.summary}: not allowed inside a form`,
          error: `${entry.name} is not allowed while storing form "${form.name}" (ignored)`,
          code: '01',
        };
    }
  }

  /** Text and bar codes decode their data with the code page active when they arrived (I). */
  private stamp(op: Op): void {
    if (op.kind === 'text' || op.kind === 'barcode') op.decode = this.setup.codePage.decode;
  }

  // ------------------------------------------------------------------------------------------
  // Label state (for the command handlers)

  /** FR: the form's setup, fields and objects become the image buffer. */
  retrieveForm(form: Form): void {
    this.clearBuffer();
    for (const apply of form.setup) apply(this.setup);
    for (const def of form.fields) this.fields.define(def);
    this.buffer.push(...form.ops);
    this.activeForm = form;
  }

  clearBuffer(): void {
    for (const op of this.buffer) {
      if (!this.printedOps.has(op) && op.src.debug.debugType === 'command' && !this.job.isPlaced(op.src.debug)) {
        op.src.debug.debugType = 'notPrinted';
        this.addError(`Line ${op.src.line}: ${op.src.command} was cleared from the image buffer without being printed`);
      }
    }
    this.buffer = [];
    this.activeForm = null;
    this.awaitingData = [];
  }

  configReply(): Uint8Array {
    const ctx = this.getContext();
    return configurationReply({
      setup: this.setup,
      widthInDots: ctx.widthInDots,
      heightInDots: ctx.heightInDots,
      errorReporting: this.reporting.enabled,
      forms: this.forms.size,
      graphics: this.graphics.size,
      formBytes: this.formBytes(),
      graphicBytes: this.graphicBytes(),
    });
  }

  formBytes(): number {
    let n = 0;
    for (const f of this.forms.values()) n += f.sizeInBytes;
    return n;
  }

  graphicBytes(): number {
    let n = 0;
    for (const g of this.graphics.values()) n += Math.ceil(g.width / 8) * g.height;
    return n;
  }

  /** P / PA: print the image buffer `sets` times (counters step between sets), `copies` each. */
  print(sets: number, copies: number): Done {
    const ctx = this.getContext();
    for (const code of flagCodes(ctx.flags)) this.latch(code);
    const W = Math.max(1, this.setup.width ?? ctx.widthInDots);
    const fixedH = this.setup.length ?? ctx.heightInDots;
    let rendered = 0;
    const limit = (): boolean => !this.job.canPrint((message) => this.error(message, '04'));
    outer: for (let set = 0; set < sets; set++) {
      if (limit()) break;
      const label = this.renderLabel(W, fixedH, set === 0);
      this.job.spendRendering(label, this.buffer.filter((op) => op.kind === 'barcode' || op.kind === 'code2d').length);
      for (let copy = 0; copy < copies; copy++) {
        if (limit()) break outer;
        this.job.addLabel(label, set === 0 && copy === 0);
        rendered++;
      }
      this.fields.stepCounters();
    }
    for (const op of this.buffer) this.printedOps.add(op);
    const what = `${sets} label${sets === 1 ? '' : 's'}${copies > 1 ? `, ${copies} copies each` : ''}`;
    return { text: `Print ${what} (${rendered} rendered)`, params: { labels: String(sets), copies: String(copies) } };
  }

  /** Render the image buffer once (one label with the current field values). */
  private renderLabel(W: number, fixedH: number | null, reportErrors: boolean): RenderedLabel {
    const setup = this.setup;
    const now = this.now();
    const env: RenderEnv = {
      expand: (op) => this.fields.expand(op.data, now, setup.timeFormat, setup.dateFormat),
      decode: (s) => setup.codePage.decode(s),
      graphic: (name) => this.graphics.get(name),
      refX: setup.refX,
      refY: setup.refY,
    };
    const out = renderOps(this.buffer, env);
    if (reportErrors) for (const e of out.errors) this.reportOpError(e.src, e.message, e.code);
    const sources = new Map<DebugElement, OpSource>(out.ops.map((r) => [r.op.src.debug, r.op.src]));
    return layoutLabel(out.ops.map((r) => ({ debug: r.op.src.debug, elements: r.elements })), W, fixedH, !setup.topFirst, (debug, outside) => {
      const src = sources.get(debug);
      if (reportErrors && src) this.reportOpError(src, outside ? 'object is entirely outside the label and was not printed' : 'object exceeds the label and was clipped', '02');
    });
  }

  private reportOpError(src: OpSource, message: string, code: string): void {
    this.addError(`Line ${src.line}: ${src.command}: ${message}`);
    this.latch(code);
  }

  private finishPending(): void {
    if (this.storing) {
      this.addError(`Form "${this.storing.name}" was not ended with FE and is not stored`);
      this.storing = null;
    }
    if (this.awaitingData.length > 0) {
      this.addError(`${this.awaitingData.length} variable/counter value(s) expected after ? never arrived`);
    }
    if (!this.job.hasPending) return;
    const unprinted: string[] = [];
    for (const op of this.buffer) {
      if (this.printedOps.has(op)) continue;
      if (op.src.debug.debugType === 'command' && !this.job.isPlaced(op.src.debug)) {
        op.src.debug.debugType = 'notPrinted';
        unprinted.push(`${op.src.command} (line ${op.src.line})`);
      }
    }
    if (unprinted.length > 0) {
      const list = unprinted.length > 10 ? `${unprinted.slice(0, 10).join(', ')} and ${unprinted.length - 10} more` : unprinted.join(', ');
      this.addError(`${unprinted.length} command(s) after the last print command (P) were not printed: ${list}`);
    }
    this.job.closePending(() => {
      const ctx = this.getContext();
      return { widthInDots: Math.max(1, this.setup.width ?? ctx.widthInDots), heightInDots: this.setup.length ?? ctx.heightInDots };
    });
  }
}

const ok = (done: Done): LineResult => ({ debugType: 'command', description: done.text, parameters: done.params });

/** A refused command: "SUMMARY: why" on its debug element, "NAME: why" on the document. */
function refused(entry: EplCommand, r: Refusal, message = r.message ?? `${entry.name}: ${r.refused}`): LineResult {
  return { debugType: r.unsupported ? 'unsupported' : 'malformed', description: `${entry.summary}: ${r.refused}`, error: message, code: r.code ?? '01' };
}

/** Setup commands name their whole parameter text in the message ("Qabc: ..."). */
const refusedSetup = (entry: EplCommand, rest: string, r: Refusal): LineResult => refused(entry, r, `${entry.name}${rest}: ${r.refused}`);
