import type { MenuEntry, MenuLink } from '../../../../core/menu.js';

export function menuLinks(entries: readonly MenuEntry[]): MenuLink[] {
  return entries.flatMap((entry) => (entry.kind === 'link' ? [entry] : entry.children));
}

const trimSlash = (path: string) => (path.length > 1 ? path.replace(/\/$/, '') : path);

/**
 * The entry to highlight for `pathname`: the longest menu path it is at or
 * under, so /cases/42 lights Applications but /cases/drafts lights Drafts.
 */
export function activeLinkId(entries: readonly MenuEntry[], pathname: string): string | null {
  const current = trimSlash(pathname);
  let best: MenuLink | null = null;
  for (const link of menuLinks(entries)) {
    const path = trimSlash(link.path);
    const under = current === path || current.startsWith(`${path}/`);
    if (under && (!best || path.length > trimSlash(best.path).length)) best = link;
  }
  return best?.id ?? null;
}
