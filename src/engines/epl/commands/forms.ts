/** Forms (FS ... FE, FR, FK, FI), their variables and counters (V, C) and variable data (?). */
import { quotedName } from '../params.ts';
import { int } from '../params.ts';
import { listingReply } from '../replies.ts';
import type { CounterDef, VariableDef } from '../state.ts';
import { control, field, inRange, none, refuse, type EplFamily, type Refusal } from './define.ts';

const formName = (rest: string): string | Refusal => quotedName(rest) ?? refuse('expected a form name in quotes');

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
export function parseVariable(rest: string): VariableDef | Refusal {
  const p = rest.split(',');
  const idx = int(p[0]);
  if (!inRange(idx, 0, 99)) return refuse('variable number must be 00-99');
  const max = int(p[1]);
  if (!inRange(max, 1, 99)) return refuse('maximum length must be 1-99');
  const j = justification(p[2]);
  if (!j) return refuse('justification must be L, R, C or N');
  return { kind: 'variable', index: idx, maxLength: max, justification: j, prompt: promptOf(rest) };
}

/** `Cp1,p2,p3,p4,"prompt"`: counter 0-9, maximum digits, justification, step (+n / -n). */
export function parseCounter(rest: string): CounterDef | Refusal {
  const p = rest.split(',');
  const idx = int(p[0]);
  if (!inRange(idx, 0, 9)) return refuse('counter number must be 0-9');
  const max = int(p[1]);
  if (!inRange(max, 1, 65)) return refuse('maximum digits must be 1-65');
  const j = justification(p[2]);
  if (!j) return refuse('justification must be L, R, C or N');
  const step = int(p[3]);
  if (!Number.isInteger(step) || Math.abs(step) > 999999) return refuse('step must be +n or -n');
  return { kind: 'counter', index: idx, maxDigits: max, justification: j, step, prompt: promptOf(rest) };
}


export const FORMS: EplFamily = [
  control({
    name: 'FS', summary: 'Store form', group: 'form', takesParameters: true,
    parse: (rest) => {
      const name = quotedName(rest);
      return name === null || name === '' ? refuse('expected a form name in quotes') : name;
    },
    run(session, name) {
      if (session.forms.has(name)) return refuse(`form "${name}" already exists (delete it with FK first)`, '08');
      session.storing = { name, ops: [], setup: [], fields: [], sizeInBytes: 0 };
      return { text: `Store form "${name}"` };
    },
  }),
  control({
    name: 'FE', summary: 'End form store', group: 'form', takesParameters: false, parse: none, endsForm: true,
    run(session) {
      const form = session.storing;
      if (!form) return refuse('no form is being stored');
      session.storing = null;
      session.forms.set(form.name, form);
      return { text: `End of form "${form.name}" (${form.ops.length} objects, ${form.fields.length} variables and counters)` };
    },
  }),
  control({
    name: 'FR', summary: 'Retrieve form', group: 'form', takesParameters: true, parse: formName,
    run(session, name) {
      const form = session.forms.get(name);
      if (!form) return refuse(`form "${name}" not found`, '09');
      session.retrieveForm(form);
      return { text: `Retrieve form "${name}"` };
    },
  }),
  control({
    name: 'FK', summary: 'Delete form', group: 'form', takesParameters: true, parse: formName,
    run(session, name) {
      if (name === '*') {
        const n = session.forms.size;
        session.forms.clear();
        return { text: `Delete all forms (${n})` };
      }
      return { text: session.forms.delete(name) ? `Delete form "${name}"` : `Delete form "${name}" (not stored)` };
    },
  }),
  control({
    name: 'FI', summary: 'List forms', group: 'form', takesParameters: false, parse: none,
    run(session) {
      session.reply(listingReply('Forms', [...session.forms.keys()], session.formBytes()));
      return { text: `List forms (answered, ${session.forms.size} stored)` };
    },
  }),
  field<VariableDef>({
    name: 'V', summary: 'Define variable', group: 'form', takesParameters: true, parse: parseVariable,
    describe: (def) => `Variable V${String(def.index).padStart(2, '0')}, up to ${def.maxLength} characters`,
  }),
  field<CounterDef>({
    name: 'C', summary: 'Define counter', group: 'form', takesParameters: true, parse: parseCounter,
    describe: (def) => `Counter C${def.index}, ${def.maxDigits} digits, step ${def.step >= 0 ? '+' : ''}${def.step}`,
  }),
  control({
    name: '?', summary: 'Download variables and counters', group: 'form', takesParameters: false, parse: none,
    run(session) {
      const form = session.activeForm;
      if (!form) return refuse('no form retrieved (use FR first)');
      session.awaitingData = [...form.fields];
      return { text: `Variable data follows: ${form.fields.length} line(s)` };
    },
  }),
];
