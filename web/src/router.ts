/** History-API routing: `/`, `/printers/:id`, `/settings`. */
export type Route = { name: 'home' } | { name: 'printer'; id: string } | { name: 'settings' };

export function parseRoute(pathname: string): Route {
  const m = /^\/printers\/([0-9a-fA-F-]{36})\/?$/.exec(pathname);
  if (m) return { name: 'printer', id: m[1].toLowerCase() };
  if (/^\/settings\/?$/.test(pathname)) return { name: 'settings' };
  return { name: 'home' };
}

let onRoute: (() => void) | null = null;

export function setRouteHandler(fn: () => void): void {
  onRoute = fn;
}

export function navigate(path: string, replace = false): void {
  if (replace) history.replaceState(null, '', path);
  else if (location.pathname !== path) history.pushState(null, '', path);
  onRoute?.();
}

export function currentRoute(): Route {
  return parseRoute(location.pathname);
}

/** Intercepts clicks on same-origin links marked `data-link`. */
export function installLinkHandler(): void {
  document.addEventListener('click', (ev) => {
    if (ev.defaultPrevented || ev.button !== 0 || ev.metaKey || ev.ctrlKey || ev.shiftKey || ev.altKey) return;
    const a = (ev.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
    if (!a) return;
    ev.preventDefault();
    navigate(a.getAttribute('href') ?? '/');
  });
  window.addEventListener('popstate', () => onRoute?.());
}
