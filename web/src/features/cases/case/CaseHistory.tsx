import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../../../core/dates.js';
import { type FieldDef, type FormDefinition, scopeFieldsDeep } from '../../../../../core/forms/definition.js';
import { useSession } from '../../../app/session/session.js';
import { QueryState } from '../../../components/page/index.js';
import { isFileRef, labelOf, optionText } from '../../tasks/fieldText.js';
import { type HistoryEvent, useCaseHistory } from '../api.js';
import { formatMoney } from '../../payments/format.js';

/** Actions the history names; any other shows as the server wrote it. */
const KNOWN = new Set([
  'case_created', 'draft_saved', 'case_submit', 'case_complete', 'case_close', 'case_activate', 'case_reject', 'case_flag',
  'field_changed', 'owner_changed', 'participants_changed',
  'task_created', 'task_accepted', 'task_rejected', 'task_restarted', 'task_assigned', 'task_closed', 'task_unblocked', 'task_overdue',
  'comment_added', 'comment_edited', 'comment_deleted', 'document_accepted',
  'correction_requested', 'correction_resubmitted', 'correction_cancelled',
  // Issue 23: parties, awards and payments.
  'party_invited', 'party_reinvited', 'party_joined', 'party_reminded', 'party_submitted', 'party_expired', 'party_deadline_pay_tenant',
  'award_set', 'payee_saved', 'bank_details_read', 'payment_batched', 'payment_made',
]);

/** An event's amount (whole cents) as the payments pages show it; '' when it has none. */
const dollars = (cents: unknown, language: string) => (typeof cents === 'number' ? formatMoney(cents, language) : '');

/** The text of a comment kept in an event's detail (`body`, or `from`/`to` of an edit or delete). */
function commentText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as { body?: unknown }).body === 'string') return (value as { body: string }).body;
  return '';
}

/** A stored value in a few words: option labels, yes/no, file names, a count of rows. */
function brief(field: FieldDef | undefined, value: unknown, t: TFunction, language: string): string {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return t('tasks.form.empty');
  if (typeof value === 'boolean') return t(value ? 'tasks.yes' : 'tasks.no');
  const label = (v: unknown) => {
    const option = field?.options?.find((o) => String(o.value) === String(v));
    return option ? optionText(option, language) : String(v);
  };
  if (Array.isArray(value)) {
    if (value.every(isFileRef)) return value.map((f) => f.name).join(', ');
    if (value.some((v) => v && typeof v === 'object')) return t('caseView.history.rows', { count: value.length });
    return value.map(label).join(', ');
  }
  if (isFileRef(value)) return value.name;
  if (typeof value === 'object') return t('caseView.history.changedValue');
  return label(value);
}

function describe(event: HistoryEvent, fields: Map<string, FieldDef>, t: TFunction, language: string): { what: string; more?: string } {
  const name = (field: string) => {
    const def = fields.get(field);
    return def ? labelOf(def, language) : field;
  };
  // In the form's order, as the user met them.
  const order = [...fields.keys()];
  const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
  const fieldList = Array.isArray(event.detail.fields)
    ? (event.detail.fields as unknown[])
        .map(String)
        .sort((a, b) => rank(a) - rank(b))
        .map(name)
        .join(', ')
    : '';
  const task = event.taskName ?? '';
  if (!KNOWN.has(event.action)) return { what: event.action };
  switch (event.action) {
    case 'field_changed': {
      const field = String(event.detail.field ?? '');
      const def = fields.get(field);
      return {
        what: t('caseView.history.actions.field_changed', { field: name(field) }),
        more: t('caseView.history.fromTo', { from: brief(def, event.detail.from, t, language), to: brief(def, event.detail.to, t, language) }),
      };
    }
    case 'case_created':
    case 'draft_saved':
      return { what: t(`caseView.history.actions.${event.action}`), more: fieldList ? t('caseView.history.fields', { fields: fieldList }) : undefined };
    case 'case_close':
    case 'case_complete':
    case 'task_rejected': {
      const reason = typeof event.detail.reason === 'string' && event.detail.reason ? event.detail.reason : undefined;
      return { what: t(`caseView.history.actions.${event.action}`, { task }), more: reason ? t('caseView.history.reason', { reason }) : undefined };
    }
    case 'owner_changed': {
      const { fromName, toName } = event.detail;
      return {
        what: t('caseView.history.actions.owner_changed'),
        more: typeof fromName === 'string' && typeof toName === 'string' ? t('caseView.history.fromTo', { from: fromName, to: toName }) : undefined,
      };
    }
    case 'comment_added':
      return { what: t('caseView.history.actions.comment_added', { number: event.detail.number }), more: commentText(event.detail.body) || undefined };
    case 'comment_edited':
      return {
        what: t('caseView.history.actions.comment_edited', { number: event.detail.number }),
        more: t('caseView.history.fromTo', { from: commentText(event.detail.from), to: commentText(event.detail.to) }),
      };
    case 'comment_deleted':
      return { what: t('caseView.history.actions.comment_deleted', { number: event.detail.number }), more: commentText(event.detail.from) || undefined };
    case 'document_accepted':
      return { what: t('caseView.history.actions.document_accepted', { code: String(event.detail.code ?? '') }) };
    case 'correction_requested': {
      const named = Array.isArray(event.detail.documentNames) ? event.detail.documentNames : event.detail.documents;
      const documents = Array.isArray(named) ? named.map(String) : [];
      const parts = [
        typeof event.detail.reason === 'string' ? t('caseView.history.reason', { reason: event.detail.reason }) : '',
        fieldList ? t('caseView.history.fields', { fields: fieldList }) : '',
        documents.length ? t('caseView.history.documents', { documents: documents.join(', ') }) : '',
      ];
      return { what: t('caseView.history.actions.correction_requested'), more: parts.filter(Boolean).join(' · ') || undefined };
    }
    case 'correction_resubmitted':
      return { what: t('caseView.history.actions.correction_resubmitted'), more: fieldList ? t('caseView.history.fields', { fields: fieldList }) : undefined };
    case 'correction_cancelled':
      return {
        what: t('caseView.history.actions.correction_cancelled'),
        more: typeof event.detail.because === 'string' ? t('caseView.history.correctionEnded') : undefined,
      };
    case 'party_invited':
    case 'party_reinvited':
    case 'party_submitted':
    case 'party_expired': {
      const who = typeof event.detail.name === 'string' ? event.detail.name : '';
      return { what: t(`caseView.history.actions.${event.action}`), more: who || undefined };
    }
    case 'award_set':
      return { what: t('caseView.history.actions.award_set'), more: dollars(event.detail.total, language) || undefined };
    case 'payment_batched':
    case 'payment_made': {
      const payee = typeof event.detail.payee === 'string' ? event.detail.payee : '';
      return { what: t(`caseView.history.actions.${event.action}`, { batch: event.detail.batch }), more: [dollars(event.detail.amount, language), payee].filter(Boolean).join(' · ') || undefined };
    }
    case 'participants_changed':
      return { what: t('caseView.history.actions.participants_changed', { count: Array.isArray(event.detail.userIds) ? event.detail.userIds.length : 0 }) };
    default:
      return { what: t(`caseView.history.actions.${event.action}`, { task }) };
  }
}

/** Every transition, task step and field change of one application, oldest first, with who and when. */
export function CaseHistory({ caseId, form }: { caseId: string; form: FormDefinition | null }) {
  const { t } = useTranslation();
  const history = useCaseHistory(caseId, true);
  const fields = new Map(scopeFieldsDeep(form?.fields ?? []).map((f) => [f.name, f]));
  return (
    <QueryState
      query={history}
      height={120}
      retry
      isEmpty={(events) => events.length === 0}
      empty={<Typography color="text.secondary">{t('caseView.history.empty')}</Typography>}
    >
      {(events) => <HistoryList events={events} fields={fields} />}
    </QueryState>
  );
}

/** The events, oldest first: what happened, the values a change touched, when and who. */
function HistoryList({ events, fields }: { events: HistoryEvent[]; fields: Map<string, FieldDef> }) {
  const { t, i18n } = useTranslation();
  const session = useSession();
  const language = i18n.resolvedLanguage ?? 'en';
  return (
    <Box component="ol" aria-label={t('caseView.history.label')} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {events.map((event) => {
        const { what, more } = describe(event, fields, t, language);
        return (
          <Box
            component="li"
            key={event.id}
            data-action={event.action}
            sx={{ py: 1, borderBottom: 1, borderColor: 'divider', '&:last-of-type': { borderBottom: 0 }, display: 'grid', gap: 0.25 }}
          >
            <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {what}
            </Typography>
            {more && (
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {more}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary">
              <time dateTime={event.at}>{formatDateTime(event.at, session.user.timeZone)}</time> · {event.userName ?? t('caseView.history.system')}
            </Typography>
          </Box>
        );
      })}
    </Box>
  );
}
