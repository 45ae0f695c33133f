import { createContext, useContext } from 'react';
import { matchPath } from 'react-router';

/** The part of a route object this module reads; both RouteObject and a data router's routes fit. */
interface RouteLike {
  path?: string;
  children?: readonly RouteLike[];
}

/** Every full path pattern the router declares, except the catch-all that answers 404. */
export function collectRoutePatterns(routes: readonly RouteLike[], parent = ''): string[] {
  const patterns: string[] = [];
  for (const route of routes) {
    const path = route.path === undefined ? parent : joinPaths(parent, route.path);
    if (route.path !== undefined && route.path !== '*') patterns.push(path);
    if (route.children) patterns.push(...collectRoutePatterns(route.children, path));
  }
  return patterns;
}

function joinPaths(parent: string, child: string): string {
  if (child.startsWith('/')) return child;
  return `${parent.replace(/\/$/, '')}/${child}`;
}

/** Whether the router has a page for `path` (so a menu entry can link to it). */
export function isImplemented(path: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchPath(pattern, path) !== null);
}

/** The route patterns of the running router; App provides them from the router it renders. */
export const RoutePatternsContext = createContext<readonly string[]>([]);

export function useIsImplemented(): (path: string) => boolean {
  const patterns = useContext(RoutePatternsContext);
  return (path) => isImplemented(path, patterns);
}
