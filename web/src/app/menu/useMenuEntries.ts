import { useMemo } from 'react';
import { buildMenu, type MenuEntry } from '../../../../core/menu.js';
import { useProjectSettings } from '../project/projectSettings.js';
import { useSessionUser } from '../session/session.js';

/** The side menu the current user may see. */
export function useMenuEntries(): MenuEntry[] {
  const user = useSessionUser();
  const { newApplicationsDeadline, allowNewApplications } = useProjectSettings();
  return useMemo(
    () => buildMenu({ targets: user.targets, newApplicationsDeadline, allowNewApplications, now: new Date(), operator: user.operator === true }),
    [user, newApplicationsDeadline, allowNewApplications],
  );
}
