/** Toasts, dialogs and small shared widgets. */
import { h } from './dom.ts';

let region: HTMLElement | null = null;

function toastRegion(): HTMLElement {
  if (!region) {
    region = h('div', { class: 'toasts', 'aria-live': 'polite' });
    document.body.appendChild(region);
  }
  return region;
}

export function toast(message: string, kind: 'ok' | 'error' | 'info' = 'info'): void {
  const close = h('button', { class: 'icon-btn', 'aria-label': 'Dismiss', title: 'Dismiss' }, '×');
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : 'status' }, h('span', null, message), close);
  close.addEventListener('click', () => el.remove());
  toastRegion().appendChild(el);
  if (kind !== 'error') setTimeout(() => el.remove(), 4000);
  else setTimeout(() => el.remove(), 20000);
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}

export function showError(e: unknown): void {
  toast(errorText(e), 'error');
}

/** Runs an action with a busy button; failures become an error toast (and are returned). */
export async function busy<T>(button: HTMLButtonElement | null, fn: () => Promise<T>): Promise<T | undefined> {
  if (button) {
    button.disabled = true;
    button.setAttribute('aria-busy', 'true');
  }
  try {
    return await fn();
  } catch (e) {
    showError(e);
    return undefined;
  } finally {
    if (button) {
      button.disabled = false;
      button.removeAttribute('aria-busy');
    }
  }
}

/** A modal <dialog> with a title, body and buttons; removed from the page when closed. */
export function openDialog(title: string, body: Node, opts: { wide?: boolean } = {}): { dialog: HTMLDialogElement; close: () => void } {
  const closeBtn = h('button', { class: 'icon-btn', type: 'button', 'aria-label': 'Close' }, '×');
  const id = `dlg-${Math.random().toString(36).slice(2)}`;
  const dialog = h('dialog', { class: opts.wide ? 'dialog wide' : 'dialog', 'aria-labelledby': id },
    h('header', { class: 'dialog-head' }, h('h2', { id }, title), closeBtn),
    body);
  const close = () => dialog.close();
  closeBtn.addEventListener('click', close);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.addEventListener('click', (ev) => { if (ev.target === dialog) close(); });
  document.body.appendChild(dialog);
  dialog.showModal();
  return { dialog, close };
}

export function confirmDialog(title: string, message: string, confirmLabel: string, danger = true): Promise<boolean> {
  return new Promise((resolve) => {
    let answered = false;
    const ok = h('button', { class: danger ? 'btn danger' : 'btn primary', type: 'button' }, confirmLabel);
    const cancel = h('button', { class: 'btn', type: 'button' }, 'Cancel');
    const { dialog, close } = openDialog(title, h('div', { class: 'dialog-body' }, h('p', null, message), h('div', { class: 'actions' }, cancel, ok)));
    ok.addEventListener('click', () => { answered = true; resolve(true); close(); });
    cancel.addEventListener('click', () => close());
    dialog.addEventListener('close', () => { if (!answered) resolve(false); });
    cancel.focus();
  });
}

let uid = 0;
export function field(label: string, input: Node & { id: string; setAttribute(name: string, value: string): void }, hint?: string): HTMLElement {
  const id = input.id || `f${++uid}`;
  input.id = id;
  const hintEl = hint ? h('small', { class: 'hint', id: `${id}-hint` }, hint) : null;
  if (hintEl) input.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: id }, label), input, hintEl);
}

export function toggle(label: string, checked: boolean, onChange: (checked: boolean, input: HTMLInputElement) => void): { el: HTMLElement; input: HTMLInputElement } {
  const input = h('input', { type: 'checkbox', role: 'switch', class: 'switch' });
  input.checked = checked;
  input.addEventListener('change', () => onChange(input.checked, input));
  const el = h('label', { class: 'toggle' }, input, h('span', null, label));
  return { el, input };
}

/** RFC 4122 v4 id; works in insecure contexts (plain http on a LAN) where randomUUID is missing. */
export function newId(): string {
  if (typeof crypto.randomUUID === 'function' && window.isSecureContext) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
