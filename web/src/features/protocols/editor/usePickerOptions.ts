import { useMemo } from 'react';
import { scopeFieldsDeep } from '../../../../../core/forms/definition.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { useFormDefinition, useFormOptions } from '../../forms/api.js';
import { useTeamOptions, useUserOptions } from '../../teams/api.js';
import { useProtocolTaskOptions } from '../api.js';
import type { PickerOptions } from './TaskDialog.js';

/**
 * What the protocol editor offers to choose from: forms, teams, users, email
 * templates and roles for the task templates (null while unreadable), and
 * the main form's fields (named in the user's language) for the pending-list
 * columns.
 */
export function usePickerOptions(mainFormId: number | null | undefined) {
  const can = useCan();
  const session = useSession();
  const forms = useFormOptions(can('formularios', 'show'));
  const teams = useTeamOptions(can('wf_equipos', 'show'));
  const users = useUserOptions('');
  const mainForm = useFormDefinition(mainFormId, can('formularios', 'show'));
  const { mailTemplates, roles } = useProtocolTaskOptions(can('wf_protocolos', 'show'));

  const mainFields = useMemo(() => {
    const english = (session.user.language ?? 'en') === 'en';
    return scopeFieldsDeep(mainForm.data?.definition.fields ?? [])
      .filter((f) => f.type !== 'static' && f.type !== 'repeat')
      .map((f) => ({ name: f.name, label: (english ? f.label_en || f.label : f.label || f.label_en) || f.name }));
  }, [mainForm.data, session.user.language]);

  const options: PickerOptions = useMemo(
    () => ({
      forms: forms.data ? forms.data.items.map((f) => ({ id: f.id, name: f.name })) : null,
      teams: teams.data ? teams.data.items.map((x) => ({ id: x.id, name: x.name })) : null,
      userNames: new Map((users.data ?? []).map((u) => [u.id, u.name])),
      mailTemplates,
      roles,
    }),
    [forms.data, teams.data, users.data, mailTemplates, roles],
  );

  return { options, mainFields, formItems: forms.data?.items ?? null };
}
