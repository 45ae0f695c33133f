import { useEffect } from 'react';
import type { ProjectSettings } from '../../../../core/project.js';

/** The browser tab shows the project's own title and icon, and tells search engines what the project asks. */
export function useProjectBranding(settings: ProjectSettings | undefined): void {
  const title = settings?.title;
  const favicon = settings?.favicon;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  useEffect(() => {
    if (favicon) document.getElementById('favicon')?.setAttribute('href', favicon);
  }, [favicon]);
  // The project's index-blocking flag: search engines that run the page read this tag.
  const blockIndexing = settings?.blockIndexing ?? false;
  useEffect(() => setRobots(ROBOTS_ID, blockIndexing ? 'noindex, nofollow' : null), [blockIndexing]);
}

const ROBOTS_ID = 'project-robots';

/** Keeps one `<meta name="robots">` of this id in the head with `content`, or none. */
export function setRobots(id: string, content: string | null): void {
  let meta = document.getElementById(id);
  if (content === null) {
    meta?.remove();
    return;
  }
  if (!meta) {
    meta = document.createElement('meta');
    meta.id = id;
    meta.setAttribute('name', 'robots');
    document.head.appendChild(meta);
  }
  meta.setAttribute('content', content);
}
