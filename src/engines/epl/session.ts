/**
 * One EPL2 print job (one TCP connection): tokens in, commands interpreted against the label
 * state, canvases out. Each printed label copy (P n,m) becomes one canvas; every token becomes
 * exactly one debug element, placed in the canvas of the first label it contributed to.
 */
import type { DebugElement, RenderedJob } from '../canvas/model.ts';
import type { PrinterContext, ProtocolSession, PushResult } from '../canvas/printer-context.ts';
import { Bitmap } from '../raster/bitmap.ts';
import { commandInfo, identify, type CommandInfo } from './commands.ts';
import { EPL_FONTS, validHorizontalMultiplier, validVerticalMultiplier } from './fonts.ts';
import { linearType } from './barcodes.ts';
import { decodePcx, gwBitmap } from './graphics.ts';
import { int, quotedName, splitParams, splitWithData, type DataPart } from './params.ts';
import { renderOps, type RenderEnv } from './render.ts';
import { layoutLabel } from '../label/geometry.ts';
import { LabelJob, type RenderedLabel } from '../label/job.ts';
import type { LabelPrinterMemory } from '../label/memory.ts';
import {
  configurationReply,
  errorReport,
  flagCodes,
  immediateErrorReport,
  listingReply,
  type ErrorReporting,
} from './replies.ts';
import { defaultSetup, type Code2DParams, type CounterDef, type Form, type LabelSetup, type Op, type OpSource, type Rot, type VariableDef } from './state.ts';
import { EplTokenizer, latin1, type Token } from './tokenizer.ts';
import { lookupCodePage } from './codepages.ts';
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

/** Largest plausible dot coordinate / size accepted from a command (bounds garbage input). */
const MAX_DOTS = 32767;
const MAX_DISPLAY = 160;

function display(text: string): string {
  let s = '';
  for (let i = 0; i < text.length && s.length < MAX_DISPLAY; i++) {
    const c = text.charCodeAt(i);
    s += c < 0x20 || c === 0x7f ? `<${c.toString(16).toUpperCase().padStart(2, '0')}>` : text[i];
  }
  if (s.length >= MAX_DISPLAY) s += '…';
  return s;
}

const rotOf = (n: number): Rot | null => (n === 0 || n === 1 || n === 2 || n === 3 ? n : null);
const inRange = (n: number, lo = 0, hi = MAX_DOTS): boolean => Number.isInteger(n) && n >= lo && n <= hi;

export class EplSession implements ProtocolSession {
  private readonly tokenizer = new EplTokenizer();
  private readonly getContext: () => PrinterContext;
  private readonly now: () => Date;

  private setup: LabelSetup = defaultSetup();
  private buffer: Op[] = [];
  private readonly printedOps = new WeakSet<Op>();
  private readonly forms: Map<string, Form>;
  private readonly graphics: Map<string, Bitmap>;
  private readonly fields = new FieldStore();
  /** Form being stored (FS ... FE). */
  private storing: Form | null = null;
  /** Form retrieved by FR (its fields take the `?` data). */
  private activeForm: Form | null = null;
  /** Fields still waiting for a data line after `?`. */
  private awaitingData: Array<VariableDef | CounterDef> = [];

  /** The label machine's document: debug elements, printed labels, budgets, errors. */
  private readonly job: LabelJob;
  private line = 0;
  private latched: string[] = [];
  private reporting: ErrorReporting = { enabled: false, char: '\u0015', mode: 0 };
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
    const found = identify(text);
    if (!found) {
      return { debugType: 'unknown', description: 'Unknown command', error: `unknown command "${display(text.slice(0, 20))}"`, code: '01' };
    }
    const { info, rest } = found;
    if (this.storing && info.name !== 'FE') return this.storeInForm(info, rest, t, debug);
    return this.execute(info, rest, t, debug);
  }

  private source(debug: DebugElement, info: CommandInfo): OpSource {
    return { debug, line: this.line, command: info.name };
  }

  // ------------------------------------------------------------------------------------------
  // Commands

  private execute(info: CommandInfo, rest: string, t: Token, debug: DebugElement): LineResult {
    if (info.group === 'draw' || info.name === 'GW' || info.name === 'GG') {
      const op = this.parseDrawing(info, rest, t, this.source(debug, info));
      if ('error' in op) return { debugType: 'malformed', description: `${info.title}: ${op.error}`, error: `${info.name}: ${op.error}`, code: '01' };
      if (op.op.kind === 'text' || op.op.kind === 'barcode') op.op.decode = this.setup.codePage.decode;
      this.buffer.push(op.op);
      return { debugType: 'command', description: op.description };
    }
    const setupResult = this.setupCommand(info, rest, this.setup);
    if (setupResult) return setupResult;
    return this.controlCommand(info, rest, t);
  }

  /** Inside FS ... FE: drawing and setup commands are stored, V and C define fields. */
  private storeInForm(info: CommandInfo, rest: string, t: Token, debug: DebugElement): LineResult {
    const form = this.storing!;
    form.sizeInBytes += t.bytes.length;
    if (info.group === 'draw' || info.name === 'GW' || info.name === 'GG') {
      const op = this.parseDrawing(info, rest, t, this.source(debug, info));
      if ('error' in op) return { debugType: 'malformed', description: `${info.title}: ${op.error}`, error: `${info.name} in form "${form.name}": ${op.error}`, code: '01' };
      if (op.op.kind === 'text' || op.op.kind === 'barcode') op.op.decode = this.setup.codePage.decode;
      form.ops.push(op.op);
      return { debugType: 'command', description: `${op.description} (stored in form "${form.name}")` };
    }
    if (info.name === 'V' || info.name === 'C') {
      const def = info.name === 'V' ? parseVariable(rest) : parseCounter(rest);
      if ('error' in def) return { debugType: 'malformed', description: `${info.title}: ${def.error}`, error: `${info.name}: ${def.error}`, code: '01' };
      form.fields.push(def);
      return { debugType: 'command', description: `${def.kind === 'variable' ? `Variable V${String(def.index).padStart(2, '0')}, up to ${def.maxLength} characters` : `Counter C${def.index}, ${def.maxDigits} digits, step ${def.step >= 0 ? '+' : ''}${def.step}`} (form "${form.name}")` };
    }
    if (['q', 'Q', 'R', 'ZT', 'ZB', 'I', 'S', 'D', 'O', 'JF', 'JB', 'JC', 'N'].includes(info.name)) {
      // Validate now, apply when the form is retrieved.
      const probe = this.setupCommand(info, rest, defaultSetup());
      if (probe && probe.debugType !== 'command') return probe;
      if (info.name !== 'N') form.setup.push((s) => void this.setupCommand(info, rest, s));
      return { debugType: 'command', description: `${probe?.description ?? info.title} (stored in form "${form.name}")` };
    }
    return {
      debugType: 'malformed',
      description: `${info.title}: not allowed inside a form`,
      error: `${info.name} is not allowed while storing form "${form.name}" (ignored)`,
      code: '01',
    };
  }

  /** Setup commands that change `s`; null when `info` is not one of them. */
  private setupCommand(info: CommandInfo, rest: string, s: LabelSetup): LineResult | null {
    const ok = (description: string, parameters?: Record<string, string>): LineResult => ({ debugType: 'command', description, parameters });
    const bad = (why: string): LineResult => ({ debugType: 'malformed', description: `${info.title}: ${why}`, error: `${info.name}${rest}: ${why}`, code: '01' });
    const p = splitParams(rest);
    switch (info.name) {
      case 'N':
        if (s === this.setup) this.clearBuffer();
        return ok('Clear image buffer');
      case 'q': {
        const w = int(p[0]);
        if (!inRange(w, 1)) return bad('width must be a number of dots');
        s.width = w;
        return ok(`Label width ${w} dots`, { width: String(w) });
      }
      case 'Q': {
        const len = int(p[0]);
        if (!inRange(len, 1)) return bad('label length must be a number of dots');
        const gap = (p[1] ?? '').trim();
        if (gap !== '' && !/^(B?\d{1,5}|\d{1,5}|B\d{1,5})$/.test(gap)) return bad(`invalid gap "${gap}"`);
        if (p[2] !== undefined && !/^[+-]?\d{1,5}$/.test(p[2].trim())) return bad(`invalid offset "${p[2]}"`);
        s.length = len;
        s.gap = gap;
        const media = gap === '0' ? 'continuous media' : gap.startsWith('B') ? `black mark ${gap.slice(1)} dots` : gap ? `gap ${gap} dots` : 'gap unchanged';
        return ok(`Label length ${len} dots, ${media}`, { length: String(len), gap });
      }
      case 'R': {
        const x = int(p[0]), y = int(p[1] ?? '0');
        if (!inRange(x) || !inRange(y)) return bad('reference point must be two numbers of dots');
        s.refX = x;
        s.refY = y;
        return ok(`Reference point (${x},${y})`);
      }
      case 'ZT':
        s.topFirst = true;
        return ok('Print direction: top first (normal)');
      case 'ZB':
        s.topFirst = false;
        return ok('Print direction: bottom first (label turned 180 degrees)');
      case 'I': {
        const bits = (p[0] ?? '').trim();
        if (bits !== '8' && bits !== '7') return bad('data bits must be 7 or 8');
        const page = lookupCodePage(p[1] ?? '0');
        if (!page) return bad(`unknown code page "${p[1]}"`);
        s.eightBit = bits === '8';
        s.codePage = page;
        const note = page.exact ? '' : ' (rendered with DOS 437 glyph mapping)';
        return ok(`Character set ${bits}-bit, ${page.name}${p[2] ? `, country ${p[2]}` : ''}${note}`);
      }
      case 'S': {
        const v = Number((p[0] ?? '').trim());
        if (!(v >= 1 && v <= 6)) return bad('speed must be 1 to 6');
        s.speed = v;
        return ok(`Print speed ${v} (configuration only)`);
      }
      case 'D': {
        const v = int(p[0]);
        if (!inRange(v, 0, 15)) return bad('density must be 0 to 15');
        s.density = v;
        return ok(`Print density ${v} (configuration only)`);
      }
      case 'O':
        s.options = rest.trim() ? rest.split(',').map((x) => x.trim()) : [];
        return ok(`Hardware options ${rest.trim() || 'reset'} (configuration only)`);
      case 'JF':
      case 'JB':
      case 'JC':
        s.backup = info.name;
        return ok(`${info.title} (configuration only)`);
    }
    return null;
  }

  private controlCommand(info: CommandInfo, rest: string, t: Token): LineResult {
    const ok = (description: string, parameters?: Record<string, string>): LineResult => ({ debugType: 'command', description, parameters });
    const bad = (why: string, code = '01'): LineResult => ({ debugType: 'malformed', description: `${info.title}: ${why}`, error: `${info.name}: ${why}`, code });
    switch (info.name) {
      case 'P':
      case 'PA':
        return this.print(info, rest);
      case 'UQ':
        this.replies.push(this.configReply());
        return ok('Configuration information request (answered)');
      case 'UP':
        this.replies.push(this.configReply());
        return ok('Print configuration (answered, label not printed)');
      case 'US':
        this.reporting.enabled = true;
        return ok('Error reporting enabled');
      case 'UN':
        this.reporting.enabled = false;
        return ok('Error reporting disabled');
      case 'eR': {
        const m = /^(.),?\s*(\d)?/.exec(rest);
        if (!m) return bad('expected a character and a mode');
        const mode = m[2] === undefined ? 0 : Number(m[2]);
        if (mode > 2) return bad('mode must be 0, 1 or 2');
        this.reporting.char = m[1];
        this.reporting.mode = mode;
        return ok(`Error/status character "${display(m[1])}", mode ${mode}`);
      }
      case '^ee': {
        const codes = [...this.safeFlagCodes(), ...this.latched];
        this.replies.push(immediateErrorReport(codes));
        this.latched = [];
        return ok(`Immediate error report (answered ${codes.length ? [...new Set(codes)].join(',') : '00'})`);
      }
      case 'FI':
        this.replies.push(listingReply('Forms', [...this.forms.keys()], this.formBytes()));
        return ok(`List forms (answered, ${this.forms.size} stored)`);
      case 'GI':
        this.replies.push(listingReply('Graphics', [...this.graphics.keys()], this.graphicBytes()));
        return ok(`List graphics (answered, ${this.graphics.size} stored)`);
      case 'EI':
        this.replies.push(listingReply('Fonts', [], 0));
        return ok('List soft fonts (answered, none stored)');
      case 'UF':
        this.replies.push(listingReply('Forms', [...this.forms.keys()], this.formBytes()));
        return ok('Form information (answered)');
      case 'UG':
        this.replies.push(listingReply('Graphics', [...this.graphics.keys()], this.graphicBytes()));
        return ok('Graphics information (answered)');
      case 'UE':
        this.replies.push(listingReply('Fonts', [], 0));
        return ok('External font information (answered)');
      case 'FS': {
        const name = quotedName(rest);
        if (name === null || name === '') return bad('expected a form name in quotes');
        if (this.forms.has(name)) return bad(`form "${name}" already exists (delete it with FK first)`, '08');
        this.storing = { name, ops: [], setup: [], fields: [], sizeInBytes: 0 };
        return ok(`Store form "${name}"`);
      }
      case 'FE': {
        const form = this.storing;
        if (!form) return bad('no form is being stored');
        this.storing = null;
        this.forms.set(form.name, form);
        return ok(`End of form "${form.name}" (${form.ops.length} objects, ${form.fields.length} variables and counters)`);
      }
      case 'FR': {
        const name = quotedName(rest);
        if (name === null) return bad('expected a form name in quotes');
        const form = this.forms.get(name);
        if (!form) return bad(`form "${name}" not found`, '09');
        this.clearBuffer();
        for (const apply of form.setup) apply(this.setup);
        for (const def of form.fields) this.fields.define(def);
        this.buffer.push(...form.ops);
        this.activeForm = form;
        return ok(`Retrieve form "${name}"`);
      }
      case 'FK': {
        const name = quotedName(rest);
        if (name === null) return bad('expected a form name in quotes');
        if (name === '*') {
          const n = this.forms.size;
          this.forms.clear();
          return ok(`Delete all forms (${n})`);
        }
        if (!this.forms.delete(name)) return { ...ok(`Delete form "${name}" (not stored)`) };
        return ok(`Delete form "${name}"`);
      }
      case '?': {
        const form = this.activeForm;
        if (!form) return bad('no form retrieved (use FR first)');
        this.awaitingData = [...form.fields];
        return ok(`Variable data follows: ${form.fields.length} line(s)`);
      }
      case 'V':
      case 'C': {
        const def = info.name === 'V' ? parseVariable(rest) : parseCounter(rest);
        if ('error' in def) return bad(def.error);
        this.fields.define(def);
        return { debugType: 'command', description: `${info.title} outside a form (defined for this session)` };
      }
      case 'GM': {
        const m = /^\s*"([^"]*)"\s*,?\s*(\d+)\s*$/.exec(rest);
        if (!m || t.binaryStart === undefined) return bad('expected GM"NAME"size followed by the PCX data');
        const name = m[1];
        if (this.graphics.has(name)) return bad(`graphic "${name}" already exists (delete it with GK first)`, '08');
        const pcx = decodePcx(t.bytes.subarray(t.binaryStart, t.binaryEnd));
        if (!pcx.ok) return bad(`graphic "${name}": ${pcx.error}`);
        this.graphics.set(name, pcx.bitmap);
        return ok(`Store graphic "${name}" (${pcx.bitmap.width}x${pcx.bitmap.height} dots)`);
      }
      case 'GK': {
        const name = quotedName(rest);
        if (name === null) return bad('expected a graphic name in quotes');
        if (name === '*') {
          const n = this.graphics.size;
          this.graphics.clear();
          return ok(`Delete all graphics (${n})`);
        }
        return ok(this.graphics.delete(name) ? `Delete graphic "${name}"` : `Delete graphic "${name}" (not stored)`);
      }
      case 'TT':
        this.setup.timeFormat = rest.trim();
        return ok(`Time format ${rest.trim() || 'default'}`);
      case 'TD':
        this.setup.dateFormat = rest.trim();
        return ok(`Date format ${rest.trim() || 'default'}`);
      case '^@':
      case '@':
        this.setup = defaultSetup();
        this.clearBuffer();
        return ok('Reset printer (label settings back to defaults)');
      case '^default':
        this.setup = defaultSetup();
        return ok('Factory defaults restored');
      case 'U':
      case 'UB':
        return ok(`${info.title} (not printed by the emulator)`);
      case 'ES':
      case 'EK':
        return { debugType: 'unsupported', description: `${info.title}: soft fonts are not emulated`, error: `${info.name}: soft fonts are not emulated`, code: '01' };
      default:
        return ok(`${info.title} (configuration only)`);
    }
  }

  // ------------------------------------------------------------------------------------------
  // Drawing commands

  private parseDrawing(info: CommandInfo, rest: string, t: Token, src: OpSource): { op: Op; description: string } | { error: string } {
    switch (info.name) {
      case 'A':
        return parseText(rest, src);
      case 'B':
        return parseBarcode(rest, src);
      case 'b':
        return parse2D(rest, src);
      case 'LO':
      case 'LW':
      case 'LE': {
        const p = splitParams(rest).map(int);
        if (p.length !== 4 || !p.every((n) => inRange(n))) return { error: 'expected x,y,width,height in dots' };
        const mode = info.name === 'LO' ? 'black' : info.name === 'LW' ? 'white' : 'xor';
        return { op: { kind: 'fill', x: p[0], y: p[1], w: p[2], h: p[3], mode, src }, description: `${info.title} at (${p[0]},${p[1]}), ${p[2]}x${p[3]} dots` };
      }
      case 'LS': {
        const p = splitParams(rest).map(int);
        if (p.length !== 5 || !p.every((n) => inRange(n))) return { error: 'expected x1,y1,thickness,x2,y2 in dots' };
        if (p[2] < 1) return { error: 'thickness must be at least 1 dot' };
        return { op: { kind: 'diagonal', x1: p[0], y1: p[1], t: p[2], x2: p[3], y2: p[4], src }, description: `Diagonal line (${p[0]},${p[1]}) to (${p[3]},${p[4]}), ${p[2]} dots thick` };
      }
      case 'X': {
        const p = splitParams(rest).map(int);
        if (p.length !== 5 || !p.every((n) => inRange(n))) return { error: 'expected x1,y1,thickness,x2,y2 in dots' };
        if (p[2] < 1) return { error: 'thickness must be at least 1 dot' };
        return { op: { kind: 'box', x1: p[0], y1: p[1], t: p[2], x2: p[3], y2: p[4], src }, description: `Box (${p[0]},${p[1]}) to (${p[3]},${p[4]}), lines ${p[2]} dots thick` };
      }
      case 'GW': {
        if (t.binaryStart === undefined) return { error: 'expected GWx,y,widthBytes,height, followed by the raster data' };
        const p = latin1(t.bytes, 2, t.binaryStart).split(',').map(int);
        if (!inRange(p[0]) || !inRange(p[1]) || !inRange(p[2], 0, 4096) || !inRange(p[3], 0, MAX_DOTS)) return { error: 'graphic position or size out of range' };
        const bmp = gwBitmap(p[2], p[3], t.bytes.subarray(t.binaryStart, t.binaryEnd));
        return { op: { kind: 'graphic', x: p[0], y: p[1], bitmap: bmp, src }, description: `Graphic at (${p[0]},${p[1]}), ${p[2] * 8}x${p[3]} dots` };
      }
      case 'GG': {
        const m = /^\s*(\d+)\s*,\s*(\d+)\s*,\s*"([^"]*)"\s*$/.exec(rest);
        if (!m) return { error: 'expected x,y,"NAME"' };
        const x = Number(m[1]), y = Number(m[2]);
        if (!inRange(x) || !inRange(y)) return { error: 'position out of range' };
        return { op: { kind: 'storedGraphic', x, y, name: m[3], src }, description: `Stored graphic "${m[3]}" at (${x},${y})` };
      }
    }
    return { error: 'not a drawing command' };
  }

  // ------------------------------------------------------------------------------------------
  // Printing

  private clearBuffer(): void {
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

  private configReply(): Uint8Array {
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

  private formBytes(): number {
    let n = 0;
    for (const f of this.forms.values()) n += f.sizeInBytes;
    return n;
  }

  private graphicBytes(): number {
    let n = 0;
    for (const g of this.graphics.values()) n += Math.ceil(g.width / 8) * g.height;
    return n;
  }

  private print(info: CommandInfo, rest: string): LineResult {
    const p = splitParams(rest);
    const sets = p[0] === undefined || p[0] === '' ? 1 : int(p[0]);
    const copies = p[1] === undefined || p[1] === '' ? 1 : int(p[1]);
    if (!inRange(sets, 1, 65535) || !inRange(copies, 1, 65535) || p.length > 2) {
      return { debugType: 'malformed', description: `${info.title}: expected P labels[,copies] (1-65535)`, error: `${info.name}${rest}: expected labels[,copies] between 1 and 65535`, code: '01' };
    }
    const ctx = this.getContext();
    for (const code of flagCodes(ctx.flags)) this.latch(code);
    const W = Math.max(1, this.setup.width ?? ctx.widthInDots);
    const fixedH = this.setup.length ?? ctx.heightInDots;
    let rendered = 0;
    const limit = (): boolean => !this.job.canPrint((message) => this.error(message, '04'));
    outer: for (let set = 0; set < sets; set++) {
      if (limit()) break;
      const label = this.renderLabel(W, fixedH, set === 0);
      this.job.spendRendering(label);
      for (let copy = 0; copy < copies; copy++) {
        if (limit()) break outer;
        this.job.addLabel(label, set === 0 && copy === 0);
        rendered++;
      }
      this.fields.stepCounters();
    }
    for (const op of this.buffer) this.printedOps.add(op);
    const what = `${sets} label${sets === 1 ? '' : 's'}${copies > 1 ? `, ${copies} copies each` : ''}`;
    return { debugType: 'command', description: `Print ${what} (${rendered} rendered)`, parameters: { labels: String(sets), copies: String(copies) } };
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

// --------------------------------------------------------------------------------------------
// Parameter parsing of drawing and field commands

function describeData(parts: DataPart[]): string {
  return parts
    .map((p) => (p.kind === 'literal' ? `"${display(p.text)}"` : p.kind === 'variable' ? `V${String(p.index).padStart(2, '0')}` : p.kind === 'counter' ? `C${p.index}` : p.kind === 'time' ? 'TT' : 'TD'))
    .join('');
}

function parseText(rest: string, src: OpSource): { op: Op; description: string } | { error: string } {
  const s = splitWithData(rest, 7);
  if (s.error) return { error: s.error };
  if (s.params.length < 7 || !s.data) return { error: 'expected x,y,rotation,font,h-mult,v-mult,N|R,"DATA"' };
  const [x, y, r] = [int(s.params[0]), int(s.params[1]), int(s.params[2])];
  if (!inRange(x) || !inRange(y)) return { error: 'position out of range' };
  const rot = rotOf(r);
  if (rot === null) return { error: `rotation must be 0 to 3 (got ${s.params[2]})` };
  const fontId = int(s.params[3]);
  const font = EPL_FONTS[fontId];
  if (!font) return { error: `font ${s.params[3]} is not a resident font (1-5); soft fonts are not emulated` };
  const h = int(s.params[4]), v = int(s.params[5]);
  if (!validHorizontalMultiplier(h)) return { error: `horizontal multiplier must be 1-6 or 8 (got ${s.params[4]})` };
  if (!validVerticalMultiplier(v)) return { error: `vertical multiplier must be 1-9 (got ${s.params[5]})` };
  const nr = s.params[6].toUpperCase();
  if (nr !== 'N' && nr !== 'R') return { error: `expected N (normal) or R (reverse), got "${s.params[6]}"` };
  const rotText = rot === 0 ? '' : `, rotated ${rot * 90} degrees`;
  const mult = h !== 1 || v !== 1 ? `, x${h}/x${v}` : '';
  return {
    op: { kind: 'text', x, y, rot, font, hMult: h, vMult: v, reverse: nr === 'R', data: s.data, src },
    description: `Text, font ${fontId} at (${x},${y})${rotText}${mult}${nr === 'R' ? ', reverse' : ''}: ${describeData(s.data)}`,
  };
}

function parseBarcode(rest: string, src: OpSource): { op: Op; description: string } | { error: string } {
  const s = splitWithData(rest, 8);
  if (s.error) return { error: s.error };
  if (s.params.length < 8 || !s.data) return { error: 'expected x,y,rotation,type,narrow,wide,height,B|N,"DATA"' };
  const x = int(s.params[0]), y = int(s.params[1]);
  if (!inRange(x) || !inRange(y)) return { error: 'position out of range' };
  const rot = rotOf(int(s.params[2]));
  if (rot === null) return { error: `rotation must be 0 to 3 (got ${s.params[2]})` };
  const type = linearType(s.params[3]);
  if (!type) return { error: `unknown bar code type "${s.params[3]}"` };
  const narrow = int(s.params[4]), wide = int(s.params[5]), height = int(s.params[6]);
  if (!inRange(narrow, 1, 30)) return { error: `narrow bar width must be 1-30 dots (got ${s.params[4]})` };
  if (!inRange(wide, 1, 60)) return { error: `wide bar width must be 1-60 dots (got ${s.params[5]})` };
  if (!inRange(height, 1, 9999)) return { error: `bar code height must be 1-9999 dots (got ${s.params[6]})` };
  const hr = s.params[7].toUpperCase();
  if (hr !== 'B' && hr !== 'N') return { error: `human readable must be B or N (got "${s.params[7]}")` };
  return {
    op: { kind: 'barcode', x, y, rot, type, narrow, wide, height, humanReadable: hr === 'B', data: s.data, src },
    description: `Bar code ${type.name} at (${x},${y})${rot ? `, rotated ${rot * 90} degrees` : ''}, narrow ${narrow}, wide ${wide}, height ${height}${hr === 'B' ? ', human readable' : ''}: ${describeData(s.data)}`,
  };
}

const SYMBOLOGY_2D: Record<string, { sym: Code2DSym; name: string }> = {
  Q: { sym: 'qrcode', name: 'QR Code' },
  P: { sym: 'pdf417', name: 'PDF417' },
  M: { sym: 'maxicode', name: 'MaxiCode' },
  D: { sym: 'datamatrix', name: 'Data Matrix' },
  A: { sym: 'azteccode', name: 'Aztec' },
};
type Code2DSym = 'qrcode' | 'pdf417' | 'maxicode' | 'datamatrix' | 'azteccode';

function parse2D(rest: string, src: OpSource): { op: Op; description: string } | { error: string } {
  const q = rest.indexOf('"');
  if (q < 0) return { error: 'expected x,y,type,[options],"DATA"' };
  const head = rest.slice(0, q);
  const dataParsed = splitWithData(rest.slice(q), 0);
  if (dataParsed.error) return { error: dataParsed.error };
  const data = dataParsed.data ?? [];
  const parts = head.split(',').map((x) => x.trim());
  if (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length < 3) return { error: 'expected x,y,type,[options],"DATA"' };
  const x = int(parts[0]), y = int(parts[1]);
  if (!inRange(x) || !inRange(y)) return { error: 'position out of range' };
  const t = SYMBOLOGY_2D[parts[2]];
  if (!t) return { error: `unknown 2D symbology "${parts[2]}" (Q, P, M, D or A)` };
  const opts = parts.slice(3);
  const p: Code2DParams = { moduleSize: 3, options: {} };
  const fail = (why: string): { error: string } => ({ error: `${t.name}: ${why}` });
  switch (t.sym) {
    case 'qrcode': {
      // Options may be run together without commas: m2s3eMiA...
      const joined = opts.join('');
      const re = /([msei])([0-9A-Za-z]+?)(?=[msei]|$)|D(\d{2})(\d{2})([0-9A-Fa-f]{2})/gy;
      let m: RegExpExecArray | null;
      let pos = 0;
      while (pos < joined.length && (m = re.exec(joined))) {
        pos = re.lastIndex;
        if (m[3]) continue;
        const [, k, v] = m;
        if (k === 'm') {
          if (v !== '1' && v !== '2') return fail('model must be 1 or 2');
        } else if (k === 's') {
          const n = int(v);
          if (!inRange(n, 1, 99)) return fail('scale must be 1-99');
          p.moduleSize = n;
        } else if (k === 'e') {
          const lvl = v.toUpperCase();
          if (!['L', 'M', 'Q', 'H'].includes(lvl)) return fail('error correction must be L, M, Q or H');
          p.options.eclevel = lvl;
        }
      }
      if (pos < joined.length) return fail(`bad option "${joined.slice(pos)}"`);
      break;
    }
    case 'pdf417': {
      const w = int(opts[0]), h = int(opts[1]);
      if (!inRange(w, 1) || !inRange(h, 1)) return fail('expected maximum width and height in dots');
      p.maxWidth = w;
      p.maxHeight = h;
      p.center = true;
      let module: number | undefined;
      for (const o of opts.slice(2)) {
        const m = /^([a-z])(\d+)$/.exec(o);
        if (!m) {
          if (/^p\d+/.test(o) || o === '') continue;
          return fail(`bad option "${o}"`);
        }
        const n = Number(m[2]);
        switch (m[1]) {
          case 's':
            if (n > 8) return fail('security level must be 0-8');
            p.options.eclevel = n;
            break;
          case 'c':
            if (n === 1) p.options.compact = false;
            break;
          case 'f':
            p.center = n !== 0;
            break;
          case 'x':
            if (n < 2 || n > 9) return fail('module width must be 2-9');
            module = n;
            break;
          case 'y':
            if (n < 4 || n > 99) return fail('bar height must be 4-99');
            p.rowHeight = n;
            break;
          case 'r':
            if (n >= 3 && n <= 90) p.options.rows = n;
            break;
          case 'l':
            if (n >= 1 && n <= 30) p.options.columns = n;
            break;
          case 't':
            break;
          case 'o': {
            const r = rotOf(n);
            if (r === null) return fail('rotation must be 0-3');
            p.rotation = r;
            break;
          }
          default:
            return fail(`bad option "${o}"`);
        }
      }
      if (module !== undefined) {
        p.moduleSize = module;
        p.rowHeight ??= 4 * module;
      } else p.options.__autoModule = true;
      break;
    }
    case 'maxicode': {
      p.moduleSize = 7;
      for (const o of opts) {
        const m = /^m(\d)$/.exec(o);
        if (m) {
          const mode = Number(m[1]);
          if (![2, 3, 4, 6].includes(mode)) return fail('mode must be m2, m3, m4 or m6');
          p.maxicodeMode = mode;
        } else if (/^\d,\d$/.test(o) || /^\d$/.test(o)) {
          // Structured append numbering: accepted, one symbol printed.
        } else return fail(`bad option "${o}"`);
      }
      break;
    }
    case 'datamatrix': {
      p.moduleSize = 5;
      for (const o of opts.join(',').split(/,|(?=[crhv])/).filter(Boolean)) {
        const m = /^([crhv])(\d*)$/.exec(o.trim());
        if (!m) return fail(`bad option "${o}"`);
        const n = Number(m[2]);
        if (m[1] === 'h') {
          if (!(n >= 1 && n <= 40)) return fail('module size must be 1-40');
          p.moduleSize = n;
        } else if (m[1] === 'c') p.options.columns = n;
        else if (m[1] === 'r') p.options.rows = n;
        else if (m[1] === 'v') p.reverse = true;
      }
      break;
    }
    case 'azteccode': {
      p.moduleSize = 3;
      for (const o of opts.join(',').split(/,|(?=[defmr])/).filter(Boolean)) {
        const m = /^([defmr])(\d*)$/.exec(o.trim());
        if (!m) return fail(`bad option "${o}"`);
        const n = Number(m[2]);
        if (m[1] === 'd') {
          if (!(n >= 1 && n <= 55)) return fail('scaling must be 1-55');
          p.moduleSize = n;
        } else if (m[1] === 'e') {
          if (n >= 1 && n <= 99) p.options.eclevel = n;
          else if (n >= 101 && n <= 104) {
            p.options.format = 'compact';
            p.options.layers = n - 100;
          } else if (n >= 201 && n <= 232) {
            p.options.format = 'full';
            p.options.layers = n - 200;
          } else if (n === 300) p.options.format = 'rune';
          else if (n !== 0) return fail(`bad error correction/layers "e${m[2]}"`);
        } else if (m[1] === 'r') p.reverse = true;
      }
      break;
    }
  }
  return {
    op: { kind: 'code2d', x, y, symbology: t.sym, params: p, data, src },
    description: `2D bar code ${t.name} at (${x},${y}): ${describeData(data)}`,
  };
}

function justification(s: string | undefined): 'L' | 'R' | 'C' | 'N' | null {
  const j = (s ?? '').trim().toUpperCase();
  return j === 'L' || j === 'R' || j === 'C' || j === 'N' ? j : null;
}

function promptOf(s: string): string {
  const q = s.indexOf('"');
  if (q < 0) return '';
  const end = s.indexOf('"', q + 1);
  return s.slice(q + 1, end < 0 ? undefined : end);
}

/** `Vp1,p2,p3,"prompt"`: variable number 00-99, maximum length, justification. */
function parseVariable(rest: string): VariableDef | { error: string } {
  const p = rest.split(',');
  const idx = int(p[0]);
  if (!inRange(idx, 0, 99)) return { error: 'variable number must be 00-99' };
  const max = int(p[1]);
  if (!inRange(max, 1, 99)) return { error: 'maximum length must be 1-99' };
  const j = justification(p[2]);
  if (!j) return { error: 'justification must be L, R, C or N' };
  return { kind: 'variable', index: idx, maxLength: max, justification: j, prompt: promptOf(rest) };
}

/** `Cp1,p2,p3,p4,"prompt"`: counter 0-9, maximum digits, justification, step (+n / -n). */
function parseCounter(rest: string): CounterDef | { error: string } {
  const p = rest.split(',');
  const idx = int(p[0]);
  if (!inRange(idx, 0, 9)) return { error: 'counter number must be 0-9' };
  const max = int(p[1]);
  if (!inRange(max, 1, 65)) return { error: 'maximum digits must be 1-65' };
  const j = justification(p[2]);
  if (!j) return { error: 'justification must be L, R, C or N' };
  const step = int(p[3]);
  if (!Number.isInteger(step) || Math.abs(step) > 999999) return { error: 'step must be +n or -n' };
  return { kind: 'counter', index: idx, maxDigits: max, justification: j, step, prompt: promptOf(rest) };
}

export { commandInfo };
