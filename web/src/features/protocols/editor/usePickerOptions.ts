import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { scopeFieldsDeep } from '../../../../../core/forms/definition.js';
import { TASK_MAIL_EVENTS, type TaskMailEvent } from '../../../../../core/workflow/protocol.js';
import { useCan, useSession } from '../../../app/session/session.js';
import { type ListPage, listQueryString } from '../../../components/table/listParams.js';
import { apiFetch } from '../../../lib/api.js';
import { aclKeys, type CatalogItem, catalogPath } from '../../acl/api.js';
import { useFormDefinition, useFormOptions } from '../../forms/api.js';
import { useTeamOptions, useUserOptions } from '../../teams/api.js';
import { type TemplateItem, templateKeys } from '../../templates/api.js';
import type { MailTemplateOption, PickerOptions } from './TaskDialog.js';

/** The first 100 by name: a tenant's templates of one event, or its roles, are far fewer. */
const FIRST_100 = { page: 0, limit: 100, sortBy: 'name', descending: false, search: '' };

type TemplateAnswer = { data?: ListPage<TemplateItem> };

/** Per task event, its templates (null while they cannot be read). */
function templatesByEvent(answers: TemplateAnswer[]): Record<TaskMailEvent, MailTemplateOption[] | null> {
  return Object.fromEntries(
    TASK_MAIL_EVENTS.map((event, i) => {
      const page = answers[i]?.data;
      return [event, page ? page.items.filter((x) => x.event === event).map((x) => ({ id: x.id, name: x.name, isDefault: x.isDefault })) : null];
    }),
  ) as Record<TaskMailEvent, MailTemplateOption[] | null>;
}

/**
 * The tenant's email templates of each task event, as the templates pages
 * list them (same cache keys, so a change there shows here); silent when the
 * user may not list templates.
 */
function useTaskTemplateOptions(enabled: boolean) {
  return useQueries({
    queries: TASK_MAIL_EVENTS.map((event) => {
      const qs = listQueryString(FIRST_100, { event });
      return {
        queryKey: [...templateKeys.lists(), qs],
        queryFn: ({ signal }: { signal: AbortSignal }) => apiFetch<ListPage<TemplateItem>>(`/api/mail-templates?${qs}`, { signal }),
        enabled,
        staleTime: 60_000,
        retry: false,
        meta: { silentError: true },
      };
    }),
    combine: templatesByEvent,
  });
}

/** The tenant's roles, as the roles catalogue lists them; silent when the user may not list roles. */
function useRoleOptions(enabled: boolean) {
  const qs = listQueryString(FIRST_100);
  return useQuery({
    queryKey: [...aclKeys.catalogLists('roles'), qs],
    queryFn: ({ signal }) => apiFetch<ListPage<CatalogItem>>(`${catalogPath('roles')}?${qs}`, { signal }),
    enabled,
    staleTime: 60_000,
    retry: false,
    meta: { silentError: true },
  });
}

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
  const mailTemplates = useTaskTemplateOptions(can('plantillas_correo', 'show'));
  const roles = useRoleOptions(can('acl_roles', 'show'));

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
      roles: roles.data ? roles.data.items.map((r) => ({ code: r.code, name: r.name })) : null,
    }),
    [forms.data, teams.data, users.data, mailTemplates, roles.data],
  );

  return { options, mainFields, formItems: forms.data?.items ?? null };
}
