/** Slipstream web UI: boot, app shell and routing. */
import './styles.css';
import { api, ApiError } from './api.ts';
import { h, relativeTime } from './dom.ts';
import { currentRoute, installLinkHandler, navigate, setRouteHandler } from './router.ts';
import * as theme from './theme.ts';
import type { PrinterResponseDto, WorkspaceDto } from './types.ts';
import { errorText, showError, toast } from './ui.ts';
import { PRINTER_CONTROLS_ID, PrinterView } from './views/printer.ts';
import { openPrinterDialog } from './views/printer-form.ts';
import { settingsView } from './views/settings.ts';
import { Sidebar } from './views/sidebar.ts';
import { startView } from './views/start.ts';

interface View { el: HTMLElement; destroy(): void }

let shell: { root: HTMLElement; main: HTMLElement; sidebar: Sidebar; wsName: HTMLElement; skipToControls: HTMLAnchorElement } | null = null;
let view: View | null = null;
let booting = false;

function setWorkspace(ws: WorkspaceDto): void {
  api.workspace = ws;
  theme.setSchemes(ws.lightColorScheme, ws.darkColorScheme);
  if (shell) shell.wsName.textContent = ws.name;
}

function themeButton(): HTMLButtonElement {
  const labels: Record<theme.ThemeMode, string> = { auto: 'Theme: auto', light: 'Theme: light', dark: 'Theme: dark' };
  const btn = h('button', { class: 'btn small', type: 'button', title: 'Switch between automatic, light and dark themes' }, labels[theme.getMode()]);
  btn.addEventListener('click', () => {
    const order: theme.ThemeMode[] = ['auto', 'light', 'dark'];
    theme.setMode(order[(order.indexOf(theme.getMode()) + 1) % order.length]);
  });
  // The Settings page's select changes the same mode: the button follows it.
  theme.onModeChange((mode) => { btn.textContent = labels[mode]; });
  return btn;
}

function buildShell(): NonNullable<typeof shell> {
  const sidebar = new Sidebar();
  const wsName = h('span', { class: 'ws-name' }, api.workspace?.name ?? '');
  const signOut = h('button', { class: 'btn small', type: 'button' }, 'Sign out');
  signOut.addEventListener('click', () => void api.signOut());
  const menu = h('button', { class: 'btn small menu-btn', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'sidebar' }, 'Printers');
  const main = h('main', { id: 'main', class: 'main', tabindex: -1 });
  sidebar.el.id = 'sidebar';
  menu.addEventListener('click', () => {
    const open = !document.body.classList.contains('sidebar-open');
    document.body.classList.toggle('sidebar-open', open);
    menu.setAttribute('aria-expanded', String(open));
  });
  sidebar.el.addEventListener('click', (ev) => {
    if ((ev.target as Element).closest('a')) { document.body.classList.remove('sidebar-open'); menu.setAttribute('aria-expanded', 'false'); }
  });
  // Second stop of the Tab key on a printer page: past the sidebar and every document
  // straight to the printer's controls (opening them as a panel on narrow screens).
  const skipToControls = h('a', { class: 'skip-link', href: `#${PRINTER_CONTROLS_ID}`, hidden: true }, 'Skip to printer controls');
  skipToControls.addEventListener('click', (ev) => {
    const target = document.getElementById(PRINTER_CONTROLS_ID);
    if (!target) return;
    ev.preventDefault();
    target.dispatchEvent(new CustomEvent('reveal-controls', { bubbles: true }));
    target.focus();
  });
  const root = h('div', { class: 'app' },
    h('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
    skipToControls,
    h('header', { class: 'topbar' },
      menu,
      h('a', { href: '/', 'data-link': true, class: 'brand' }, h('span', { class: 'logo', 'aria-hidden': 'true' }), 'Slipstream'),
      wsName,
      h('span', { class: 'spacer' }),
      themeButton(),
      h('a', { href: '/settings', 'data-link': true, class: 'btn small' }, 'Settings'),
      signOut),
    h('div', { class: 'layout' }, sidebar.el, main));
  return { root, main, sidebar, wsName, skipToControls };
}

function homeView(sidebar: Sidebar): View {
  const list = h('div', { class: 'home-list' });
  const add = h('button', { class: 'btn primary', type: 'button' }, '+ New printer');
  add.addEventListener('click', () => openPrinterDialog(null, (p) => {
    sidebar.upsert({ printer: p.printer, runtimeStatus: p.runtimeStatus });
    navigate(`/printers/${p.printer.id}`);
  }));
  const render = () => {
    const printers = sidebar.printers;
    list.replaceChildren(printers.length
      ? h('p', { class: 'muted' }, `${printers.length} printer${printers.length === 1 ? '' : 's'} in this workspace. Pick one in the list to watch its documents.`)
      : h('p', null, 'Create a printer: it gets its own TCP port. Point a POS (or any raw TCP client) at it and print.'));
    for (const s of printers.slice(0, 12)) {
      const address = addresses.get(s.printer.id);
      list.appendChild(h('a', { class: 'home-printer', href: `/printers/${s.printer.id}`, 'data-link': true },
        h('strong', null, s.printer.displayName), h('span', { class: `state state-${(s.runtimeStatus?.state ?? 'unknown').toLowerCase()}` }, s.runtimeStatus?.state ?? 'Unknown'),
        address ? h('code', { class: 'address small' }, address) : null,
        h('span', { class: 'muted small' }, relativeTime(s.printer.lastDocumentReceivedAt))));
    }
  };
  // Sidebar snapshots carry no settings: the cards' host:port come from the printer list,
  // fetched again when a printer appears that it does not know.
  const addresses = new Map<string, string>();
  let fetching = false;
  const loadAddresses = async () => {
    if (fetching) return;
    fetching = true;
    try {
      const all = await api.get<PrinterResponseDto[]>('/api/printers', 'Loading the printers');
      for (const p of all ?? []) addresses.set(p.printer.id, `${p.settings.publicHost}:${p.settings.tcpListenPort}`);
      render();
    } catch { /* the cards work without their address */ } finally {
      fetching = false;
    }
  };
  void loadAddresses();
  render();
  const off = sidebar.onSnapshot((s) => {
    if (!addresses.has(s.printer.id)) void loadAddresses();
    render();
  });
  const timer = setTimeout(render, 500);
  const el = h('div', { class: 'home' }, h('h1', { tabindex: -1 }, `Welcome${api.workspace?.name ? ` to ${api.workspace.name}` : ''}`), list, add);
  return { el, destroy: () => { off(); clearTimeout(timer); } };
}

function route(): void {
  if (!shell) return;
  view?.destroy();
  const r = currentRoute();
  shell.sidebar.setActive(r.name === 'printer' ? r.id : null);
  shell.skipToControls.hidden = r.name !== 'printer';
  if (r.name === 'printer') view = new PrinterView(r.id, shell.sidebar);
  else if (r.name === 'settings') { view = settingsView(setWorkspace); document.title = 'Settings · Slipstream'; }
  else { view = homeView(shell.sidebar); document.title = 'Slipstream'; }
  shell.main.replaceChildren(view.el);
  shell.main.scrollTop = 0;
  window.scrollTo(0, 0);
}

async function render(message?: string): Promise<void> {
  const app = document.getElementById('app')!;
  if (!api.signedIn) {
    view?.destroy();
    view = null;
    shell?.sidebar.stop();
    shell = null;
    document.body.classList.remove('sidebar-open');
    theme.setSchemes(null, null);
    app.replaceChildren(startView(message));
    document.title = 'Slipstream';
    return;
  }
  if (shell || booting) return;
  booting = true;
  app.replaceChildren(h('main', { class: 'start', id: 'main' }, h('p', { class: 'muted', role: 'status' }, 'Signing in…')));
  try {
    await api.ensureFresh();
    await api.sessionCookie();
    setWorkspace(await api.get<WorkspaceDto>('/api/workspaces', 'Loading the workspace'));
  } catch (e) {
    booting = false;
    if (!api.signedIn) return render(errorText(e));
    const retry = h('button', { class: 'btn primary', type: 'button' }, 'Try again');
    const out = h('button', { class: 'btn', type: 'button' }, 'Sign out');
    retry.addEventListener('click', () => void render());
    out.addEventListener('click', () => void api.signOut());
    app.replaceChildren(h('main', { class: 'start', id: 'main' }, h('div', { class: 'panel' },
      h('h1', null, 'Slipstream is not reachable'), h('p', { class: 'error-text', role: 'alert' }, errorText(e)), h('div', { class: 'row' }, retry, out))));
    return;
  }
  booting = false;
  if (!api.signedIn) return render();
  shell = buildShell();
  setWorkspace(api.workspace!);
  app.replaceChildren(shell.root);
  void shell.sidebar.start();
  route();
}

function boot(): void {
  theme.apply();
  window.addEventListener('unhandledrejection', (ev) => {
    ev.preventDefault();
    showError(ev.reason instanceof Error ? ev.reason : new Error(String(ev.reason)));
  });
  window.addEventListener('error', (ev) => {
    if (ev.error instanceof ApiError) ev.preventDefault();
    toast(`Something went wrong in the page: ${ev.message}`, 'error');
  });
  installLinkHandler();
  setRouteHandler(route);
  let wasSignedIn = api.signedIn;
  api.onAuthChange(() => {
    const now = api.signedIn;
    if (now !== wasSignedIn) {
      wasSignedIn = now;
      if (now && location.pathname !== '/' && !shell) history.replaceState(null, '', location.pathname);
      void render(now ? undefined : api.signOutReason ?? undefined);
    }
  });
  void render();
}

boot();
