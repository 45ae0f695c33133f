/**
 * The print templates every tenant starts with (issue 20), for every
 * protocol of the tenant: the complete application (every field, the
 * documents, a summary of the history, after an editable introduction) and
 * a notification letter, both letters in English and Spanish with the email
 * placeholders. Seeding twice changes nothing.
 */
import { sanitizeBody } from '../../modules/templates/html.js';
import type { Db } from '../pool.js';

export const BUILTIN_PRINT_TEMPLATES = [
  {
    builtin: 'complete_application',
    name: 'Solicitud completa',
    name_en: 'Complete application',
    body_html_en: '<p>Application {{caseNumber}} of {{applicantName}} to {{programTitle}}, as it stands today.</p>',
    body_html_es: '<p>Solicitud {{caseNumber}} de {{applicantName}} a {{programTitle}}, tal como está hoy.</p>',
  },
  {
    builtin: 'notification_letter',
    name: 'Carta de notificación',
    name_en: 'Notification letter',
    body_html_en:
      '<p>Dear {{applicantName}},</p><p>We write to you about your application <strong>{{caseNumber}}</strong> to {{programTitle}}. Its state is now: <strong>{{caseState}}</strong>.</p><p>You can follow your application at {{recordLink}}. For any question, call us at {{supportPhone}}.</p><p>Sincerely,</p><p>{{programTitle}}</p>',
    body_html_es:
      '<p>Estimado(a) {{applicantName}}:</p><p>Le escribimos sobre su solicitud <strong>{{caseNumber}}</strong> a {{programTitle}}. Su estado ahora es: <strong>{{caseState}}</strong>.</p><p>Puede seguir su solicitud en {{recordLink}}. Para cualquier pregunta, llámenos al {{supportPhone}}.</p><p>Atentamente,</p><p>{{programTitle}}</p>',
  },
] as const;

export async function seedEntityPrintTemplates(trx: Db, entityId: number): Promise<void> {
  await trx
    .insertInto('print_templates')
    .values(
      BUILTIN_PRINT_TEMPLATES.map((t) => ({
        entity_id: entityId,
        kind: 'letter' as const,
        builtin: t.builtin,
        name: t.name,
        name_en: t.name_en,
        body_html_en: sanitizeBody(t.body_html_en),
        body_html_es: sanitizeBody(t.body_html_es),
      })),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
}
