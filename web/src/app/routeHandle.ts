import { useMatches } from 'react-router';
import type { Target } from '../../../core/targets.js';

/** What a route declares in its `handle`. */
export interface PageHandle {
  /** The page name shown in the footer. */
  titleKey: string;
  /** The permission target a user must hold to open the page; none means any signed-in user. */
  target?: Target;
  /** The route's `id` parameter names the project to show (/login/{id}). */
  projectFromPath?: boolean;
}

function isPageHandle(handle: unknown): handle is PageHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as PageHandle).titleKey === 'string';
}

/** The handle of the deepest matched route that declares one. */
export function usePageHandle(): PageHandle | null {
  const matches = useMatches();
  return matches.map((match) => match.handle).findLast(isPageHandle) ?? null;
}
