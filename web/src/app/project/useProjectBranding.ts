import { useEffect } from 'react';
import type { ProjectSettings } from '../../../../core/project.js';

/** The browser tab shows the project's own title and icon. */
export function useProjectBranding(settings: ProjectSettings | undefined): void {
  const title = settings?.title;
  const favicon = settings?.favicon;
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  useEffect(() => {
    if (favicon) document.getElementById('favicon')?.setAttribute('href', favicon);
  }, [favicon]);
}
