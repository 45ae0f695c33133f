import { useEffect, useState } from 'react';
import type { TaskDetail } from './api.js';

/**
 * The task as the page shows it. A newer version of the task (saved or
 * decided by anyone, heard live or on a refetch) replaces the shown one at
 * once, unless the user has typed into the form since it was loaded: then the
 * page keeps their values and says a newer version exists (`newer`), and
 * `takeNewer` loads it. Decisions go with the shown version, so saving over
 * someone else's change is refused by the server as before (409).
 */
export function useShownTask(live: TaskDetail | undefined, typedSinceLoad: () => boolean) {
  const [shown, setShown] = useState(live);
  const [newer, setNewer] = useState(false);
  useEffect(() => {
    if (!live) return;
    setShown((prev) => {
      const sameVersion = !prev || prev.id !== live.id || prev.version === live.version;
      const editable = prev && (prev.actions.includes('save') || prev.actions.includes('accept'));
      if (!sameVersion && editable && typedSinceLoad()) {
        setNewer(true);
        return prev;
      }
      setNewer(false);
      return live;
    });
    // Only a new answer from the server is a reason to look again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [live]);
  return {
    task: shown && live && shown.id === live.id ? shown : live,
    newer,
    takeNewer: () => {
      setShown(live);
      setNewer(false);
    },
  };
}
