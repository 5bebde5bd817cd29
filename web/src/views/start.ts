/** Start page: create a workspace (token shown once) or sign in with a token. */
import { api } from '../api.ts';
import { copyText, h } from '../dom.ts';
import type { GreetingResponseDto, WorkspaceResponseDto } from '../types.ts';
import { busy, field, newId, toast } from '../ui.ts';

export function startView(message?: string): HTMLElement {
  const greeting = h('p', { class: 'greeting muted' });
  void (async () => {
    try {
      const g = await api.request<GreetingResponseDto>('GET', '/api/workspaces/greeting', 'Loading the greeting', { anonymous: true });
      const hr = new Date().getHours();
      greeting.textContent = (hr < 12 ? g?.morning : hr < 18 ? g?.afternoon : g?.evening) || g?.general || '';
    } catch { /* greeting is decoration */ }
  })();

  const name = h('input', { type: 'text', required: true, maxlength: 100, autocomplete: 'organization', placeholder: 'e.g. Café test bench' });
  const createErr = h('p', { class: 'error-text', role: 'alert', hidden: true });
  const createBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Create workspace');
  const createForm = h('form', { class: 'panel form', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'Create a workspace'),
    h('p', { class: 'muted' }, 'A workspace holds your printers and their documents. You get a token to sign in with.'),
    field('Workspace name', name), createErr, createBtn);

  const token = h('input', { type: 'password', required: true, autocomplete: 'current-password', spellcheck: false, class: 'mono' });
  const show = h('button', { class: 'btn small', type: 'button', 'aria-pressed': 'false' }, 'Show');
  show.addEventListener('click', () => {
    const visible = token.type === 'password';
    token.type = visible ? 'text' : 'password';
    show.textContent = visible ? 'Hide' : 'Show';
    show.setAttribute('aria-pressed', String(visible));
  });
  const signErr = h('p', { class: 'error-text', role: 'alert', hidden: !message }, message ?? '');
  const signBtn = h('button', { class: 'btn primary', type: 'submit' }, 'Sign in');
  const signForm = h('form', { class: 'panel form', 'aria-labelledby': 'signin-title' },
    h('h2', { id: 'signin-title' }, 'Sign in'),
    h('p', { class: 'muted' }, 'Paste the workspace token you saved when the workspace was created.'),
    field('Workspace token', h('div', { class: 'row' }, token, show)), signErr, signBtn);
  // field() labels the wrapper; point the label at the input instead.
  signForm.querySelector('label')?.setAttribute('for', token.id || (token.id = 'token-input'));

  const main = h('main', { class: 'start', id: 'main' },
    h('div', { class: 'start-head' }, h('h1', null, h('span', { class: 'logo', 'aria-hidden': 'true' }), 'Slipstream'),
      h('p', null, 'Network receipt and label printers, emulated. Print ESC/POS or EPL over raw TCP and watch every receipt render live.'),
      greeting),
    h('div', { class: 'start-grid' }, createForm, signForm));

  signForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    signErr.hidden = true;
    void busy(signBtn, async () => {
      try {
        await api.login(token.value);
      } catch (e) {
        signErr.textContent = (e as Error).message;
        signErr.hidden = false;
      }
    });
  });

  createForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    createErr.hidden = true;
    const workspaceName = name.value.trim();
    if (!workspaceName) {
      createErr.textContent = 'Give the workspace a name.';
      createErr.hidden = false;
      return;
    }
    void busy(createBtn, async () => {
      try {
        const ws = await api.request<WorkspaceResponseDto>('POST', '/api/workspaces', 'Creating the workspace', { anonymous: true, json: { id: newId(), workspaceName } });
        main.replaceChildren(tokenPanel(ws));
      } catch (e) {
        createErr.textContent = (e as Error).message;
        createErr.hidden = false;
      }
    });
  });
  return main;
}

function tokenPanel(ws: WorkspaceResponseDto): HTMLElement {
  const code = h('code', { class: 'token mono', id: 'new-token' }, ws.token);
  const copy = h('button', { class: 'btn', type: 'button' }, 'Copy token');
  copy.addEventListener('click', () => void busy(copy, async () => {
    await copyText(ws.token);
    copy.textContent = 'Copied ✓';
    toast('Token copied to the clipboard.', 'ok');
  }));
  const saved = h('input', { type: 'checkbox', id: 'token-saved' });
  const go = h('button', { class: 'btn primary', type: 'button', disabled: true }, 'Continue to the workspace');
  saved.addEventListener('change', () => { go.disabled = !saved.checked; });
  const err = h('p', { class: 'error-text', role: 'alert', hidden: true });
  go.addEventListener('click', () => void busy(go, async () => {
    try {
      await api.login(ws.token);
    } catch (e) {
      err.textContent = (e as Error).message;
      err.hidden = false;
    }
  }));
  const panel = h('section', { class: 'panel token-panel', 'aria-labelledby': 'token-title' },
    h('h1', { id: 'token-title', tabindex: -1 }, `Workspace “${ws.name}” created`),
    h('div', { class: 'warning', role: 'alert' },
      h('strong', null, 'Save this token now. '),
      'It is shown only once and is the only way to sign in to this workspace. Anyone who has it can use the workspace. It cannot be recovered.'),
    h('div', { class: 'token-row' }, code, copy),
    h('label', { class: 'toggle' }, saved, h('span', null, 'I have saved the token somewhere safe')),
    err, go);
  setTimeout(() => (panel.querySelector('h1') as HTMLElement | null)?.focus(), 0);
  return panel;
}
