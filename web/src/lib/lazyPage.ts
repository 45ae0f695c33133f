import { type ComponentType, lazy } from 'react';
import { reloadForNewVersion } from './reload.js';

/**
 * React.lazy for route pages. A chunk that fails to load usually means a new
 * version was deployed and the old file names are gone: reload (guarded) to
 * fetch the new build. When the guard refuses, the error reaches the error
 * boundary instead of looping.
 */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>) {
  return lazy(async () => {
    try {
      return await load();
    } catch (error) {
      // The page is going away; stay suspended until it does.
      if (reloadForNewVersion()) return new Promise<never>(() => {});
      throw error;
    }
  });
}
