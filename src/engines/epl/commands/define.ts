/**
 * Shared vocabulary of the EPL2 command families (one small file each, joined in table.ts).
 *
 * Every entry is one command: its name (case-sensitive, as the EPL2 guide spells it), a
 * summary, whether it takes parameters, its parameter parser and its handler. The kind says
 * what the label machine does with it, and each kind requires its own handler, so an entry
 * without one does not compile:
 * - `draw`: `parse` turns the line into a drawing operation; it goes into the image buffer, or
 *   into the form being stored (FS ... FE).
 * - `setup`: `parse` checks the parameters, `apply` sets them on a label setup (the session's,
 *   or, inside a form, the one the form is retrieved into).
 * - `field`: `parse` defines a variable or counter (V, C) for the form or the session.
 * - `control`: `parse` then `run` on the session at once (print, replies, forms, memory); not
 *   allowed while a form is stored unless `endsForm`.
 */
import type { LineCommandDescriptor } from '../../core/line-commands.ts';
import type { Outcome } from '../../core/commands.ts';
import type { Token } from '../tokenizer.ts';
import type { EplSession } from '../session.ts';
import type { CounterDef, LabelSetup, Op, OpSource, VariableDef } from '../state.ts';

export type CommandGroup = 'setup' | 'draw' | 'print' | 'form' | 'graphics' | 'status' | 'config';

/** A command that could not be carried out: why (shown as "NAME: why"), and the EPL error code. */
export interface Refusal {
  refused: string;
  /** EPL error code latched for ^ee / US reporting. Default '01' (syntax). */
  code?: string;
  /** The command is known but not emulated (debug type 'unsupported'). */
  unsupported?: true;
  /** The document's error message when it is not "NAME: refused". */
  message?: string;
}

/** What a handler reports: the second line of the command's debug element (the engines' Outcome without a kind: a refusal is a Refusal). */
export type Done = Pick<Outcome, 'text' | 'params'>;

export const refuse = (refused: string, code?: string): Refusal => ({ refused, code });
export const isRefusal = (x: unknown): x is Refusal => typeof x === 'object' && x !== null && 'refused' in x;

interface Base extends LineCommandDescriptor {
  group: CommandGroup;
}

export interface DrawCommand extends Base {
  kind: 'draw';
  parse(rest: string, token: Token, src: OpSource): { op: Op; description: string } | Refusal;
}

export interface SetupCommand<P> extends Base {
  kind: 'setup';
  parse(rest: string): P | Refusal;
  apply(setup: LabelSetup, params: P): Done;
  /** Run after `apply` on the session's own setup, never when stored in a form (N). */
  live?(session: EplSession): void;
  /** False: accepted inside a form but not stored in it (N). */
  storedInForm?: false;
}

export interface FieldCommand<D extends VariableDef | CounterDef> extends Base {
  kind: 'field';
  parse(rest: string): D | Refusal;
  /** How the definition reads in the form (V / C inside FS ... FE). */
  describe(def: D): string;
}

export interface ControlCommand<P> extends Base {
  kind: 'control';
  parse(rest: string, token: Token): P | Refusal;
  run(session: EplSession, params: P): Done | Refusal;
  /** FE: runs while a form is stored (it ends it). */
  endsForm?: true;
}

/**
 * Any entry of the table. Parameter types are erased here (methods are bivariant); each entry's
 * parser and handler were checked against each other where it was written, by the builders below.
 */
export type EplCommand = DrawCommand | SetupCommand<unknown> | FieldCommand<VariableDef | CounterDef> | ControlCommand<unknown>;

export type EplFamily = readonly EplCommand[];

/** Builders that check an entry's parser and handler against each other (P is inferred). */
export const setup = <P>(e: Omit<SetupCommand<P>, 'kind'>): SetupCommand<P> => ({ kind: 'setup', ...e });
export const control = <P>(e: Omit<ControlCommand<P>, 'kind'>): ControlCommand<P> => ({ kind: 'control', ...e });
export const draw = (e: Omit<DrawCommand, 'kind'>): DrawCommand => ({ kind: 'draw', ...e });
export const field = <D extends VariableDef | CounterDef>(e: Omit<FieldCommand<D>, 'kind'>): FieldCommand<D> => ({ kind: 'field', ...e });

/** Parsers of commands without parameters, or that read none. */
export const none = (): null => null;

/** A command the emulator accepts and records but that changes nothing on the label. */
export const configOnly = (name: string, summary: string, group: CommandGroup, takesParameters = true): ControlCommand<null> =>
  control({ name, summary, group, takesParameters, parse: none, run: () => ({ text: `${summary} (configuration only)` }) });

/** Largest plausible dot coordinate / size accepted from a command (bounds garbage input). */
export const MAX_DOTS = 32767;
export const inRange = (n: number, lo = 0, hi = MAX_DOTS): boolean => Number.isInteger(n) && n >= lo && n <= hi;
