import type { MailEvent } from '../../../core/api/templates.js';
import { htmlToText, sanitizeBody } from '../../modules/templates/html.js';
import type { Db } from '../pool.js';

interface DefaultTemplate {
  name: string;
  subjectEn: string;
  subjectEs: string;
  htmlEn: string;
  htmlEs: string;
}

const link = (label: string) => `<p><a href="{{recordLink}}">${label}</a></p>`;
const sign = '<p>{{programTitle}} · {{supportPhone}}</p>';

/** The template every tenant starts with for each event (issue 16), in English and Spanish. */
export const DEFAULT_MAIL_TEMPLATES: Record<MailEvent, DefaultTemplate> = {
  application_submitted: {
    name: 'Application submitted',
    subjectEn: 'We received your application {{caseNumber}}',
    subjectEs: 'Recibimos su solicitud {{caseNumber}}',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>We received your application <strong>{{caseNumber}}</strong>. We will write to you when it has been reviewed.</p>${link('See your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>Recibimos su solicitud <strong>{{caseNumber}}</strong>. Le escribiremos cuando haya sido revisada.</p>${link('Ver su solicitud')}${sign}`,
  },
  task_assigned: {
    name: 'Task assigned',
    subjectEn: 'New task: {{taskName}} ({{caseNumber}})',
    subjectEs: 'Nueva tarea: {{taskName}} ({{caseNumber}})',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The task <strong>{{taskName}}</strong> of case {{caseNumber}} ({{applicantName}}) is now yours. It is due on {{dueDate}}.</p>${link('Open the task')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La tarea <strong>{{taskName}}</strong> del caso {{caseNumber}} ({{applicantName}}) ahora es suya. Vence el {{dueDate}}.</p>${link('Abrir la tarea')}${sign}`,
  },
  task_due_soon: {
    name: 'Task due soon',
    subjectEn: 'Due soon: {{taskName}} ({{caseNumber}})',
    subjectEs: 'Vence pronto: {{taskName}} ({{caseNumber}})',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The task <strong>{{taskName}}</strong> of case {{caseNumber}} is due on {{dueDate}}.</p>${link('Open the task')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La tarea <strong>{{taskName}}</strong> del caso {{caseNumber}} vence el {{dueDate}}.</p>${link('Abrir la tarea')}${sign}`,
  },
  task_overdue: {
    name: 'Task overdue',
    subjectEn: 'Overdue: {{taskName}} ({{caseNumber}})',
    subjectEs: 'Vencida: {{taskName}} ({{caseNumber}})',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The task <strong>{{taskName}}</strong> of case {{caseNumber}}, assigned to {{responsibleName}}, was due on {{dueDate}} and is still open.</p>${link('Open the task')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La tarea <strong>{{taskName}}</strong> del caso {{caseNumber}}, asignada a {{responsibleName}}, venció el {{dueDate}} y sigue abierta.</p>${link('Abrir la tarea')}${sign}`,
  },
  case_returned: {
    name: 'Application returned for correction',
    subjectEn: 'Your application {{caseNumber}} needs a correction',
    subjectEs: 'Su solicitud {{caseNumber}} necesita una corrección',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>Your application {{caseNumber}} was returned to you for correction:</p><blockquote>{{reason}}</blockquote>${link('Correct your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>Su solicitud {{caseNumber}} le fue devuelta para corrección:</p><blockquote>{{reason}}</blockquote>${link('Corregir su solicitud')}${sign}`,
  },
  case_completed: {
    name: 'Case completed',
    subjectEn: 'Your application {{caseNumber}} is complete',
    subjectEs: 'Su solicitud {{caseNumber}} está completa',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>The review of your application {{caseNumber}} is complete.</p>${link('See your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>La revisión de su solicitud {{caseNumber}} está completa.</p>${link('Ver su solicitud')}${sign}`,
  },
  case_closed: {
    name: 'Case closed',
    subjectEn: 'Your application {{caseNumber}} was closed',
    subjectEs: 'Su solicitud {{caseNumber}} fue cerrada',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>Your application {{caseNumber}} was closed.</p><blockquote>{{reason}}</blockquote>${link('See your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>Su solicitud {{caseNumber}} fue cerrada.</p><blockquote>{{reason}}</blockquote>${link('Ver su solicitud')}${sign}`,
  },
  comment_visible: {
    name: 'New comment on your application',
    subjectEn: 'New message about your application {{caseNumber}}',
    subjectEs: 'Nuevo mensaje sobre su solicitud {{caseNumber}}',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>There is a new message about your application {{caseNumber}}:</p><blockquote>{{comment}}</blockquote>${link('See your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>Hay un nuevo mensaje sobre su solicitud {{caseNumber}}:</p><blockquote>{{comment}}</blockquote>${link('Ver su solicitud')}${sign}`,
  },
  mention: {
    name: 'Mention',
    subjectEn: '{{mentionedBy}} mentioned you on case {{caseNumber}}',
    subjectEs: '{{mentionedBy}} lo mencionó en el caso {{caseNumber}}',
    htmlEn: `<p>Hello {{recipientName}},</p><p>{{mentionedBy}} mentioned you on case {{caseNumber}}:</p><blockquote>{{comment}}</blockquote>${link('Open the case')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>{{mentionedBy}} lo mencionó en el caso {{caseNumber}}:</p><blockquote>{{comment}}</blockquote>${link('Abrir el caso')}${sign}`,
  },
  tasks_imported: {
    name: 'Tasks from an import',
    subjectEn: '{{count}} new tasks from an import',
    subjectEs: '{{count}} tareas nuevas de una importación',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The import of <strong>{{fileName}}</strong> gave you {{count}} new tasks.</p>${link('Open your pending tasks')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La importación de <strong>{{fileName}}</strong> le asignó {{count}} tareas nuevas.</p>${link('Abrir sus tareas pendientes')}${sign}`,
  },
  import_done: {
    name: 'Import finished',
    subjectEn: 'Your import of {{fileName}} has finished',
    subjectEs: 'Su importación de {{fileName}} terminó',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The import of <strong>{{fileName}}</strong> has finished: {{count}} applications were created. {{reason}}</p>${link('See the import')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La importación de <strong>{{fileName}}</strong> terminó: se crearon {{count}} solicitudes. {{reason}}</p>${link('Ver la importación')}${sign}`,
  },
  case_resubmitted: {
    name: 'Corrected application sent back',
    subjectEn: 'Application {{caseNumber}} was corrected and sent back',
    subjectEs: 'La solicitud {{caseNumber}} fue corregida y reenviada',
    htmlEn: `<p>Hello {{recipientName}},</p><p>{{applicantName}} corrected application <strong>{{caseNumber}}</strong>, which you returned for correction, and sent it back. Its tasks continue where they were.</p>${link('Open the application')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>{{applicantName}} corrigió la solicitud <strong>{{caseNumber}}</strong>, que usted devolvió para corrección, y la reenvió. Sus tareas siguen donde estaban.</p>${link('Abrir la solicitud')}${sign}`,
  },
  correction_cancelled: {
    name: 'Correction no longer needed',
    subjectEn: 'Your application {{caseNumber}} no longer needs a correction',
    subjectEs: 'Su solicitud {{caseNumber}} ya no necesita corrección',
    htmlEn: `<p>Hello {{applicantFirstName}},</p><p>We no longer need you to correct your application <strong>{{caseNumber}}</strong>. You do not have to do anything; its review goes on.</p>${link('See your application')}${sign}`,
    htmlEs: `<p>Hola {{applicantFirstName}}:</p><p>Ya no necesitamos que corrija su solicitud <strong>{{caseNumber}}</strong>. No tiene que hacer nada; su revisión sigue.</p>${link('Ver su solicitud')}${sign}`,
  },
  webhook_disabled: {
    name: 'Webhook turned off',
    subjectEn: 'A webhook of {{programTitle}} was turned off',
    subjectEs: 'Se desactivó un webhook de {{programTitle}}',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The webhook subscription to <strong>{{reason}}</strong> was turned off: its endpoint has not accepted a delivery for a day. Check the receiver, then turn the subscription on again and redeliver what it missed.</p>${link('Open the webhooks')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La suscripción de webhook a <strong>{{reason}}</strong> se desactivó: su destino no ha aceptado una entrega en un día. Revise el receptor, active de nuevo la suscripción y reenvíe lo que no recibió.</p>${link('Abrir los webhooks')}${sign}`,
  },
  party_invited: {
    name: 'Party invited to an application',
    subjectEn: '{{applicantFirstName}} named you in an application to {{programTitle}}',
    subjectEs: '{{applicantFirstName}} lo nombró en una solicitud a {{programTitle}}',
    htmlEn: `<p>Hello {{recipientName}},</p><p>{{applicantFirstName}} applied to {{programTitle}} (application {{caseNumber}}) and named you as their {{partyRole}}. Please complete your part of the application by {{dueDate}}: sign in or create an account through the link below (it can be used once).</p>${link('Complete your part')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>{{applicantFirstName}} presentó una solicitud a {{programTitle}} (solicitud {{caseNumber}}) y lo nombró como {{partyRole}}. Complete su parte de la solicitud antes del {{dueDate}}: ingrese o cree una cuenta con el enlace de abajo (sirve una sola vez).</p>${link('Completar su parte')}${sign}`,
  },
  party_reminder: {
    name: 'Party reminder',
    subjectEn: 'Reminder: your part of application {{caseNumber}} is due {{dueDate}}',
    subjectEs: 'Recordatorio: su parte de la solicitud {{caseNumber}} vence el {{dueDate}}',
    htmlEn: `<p>Hello {{recipientName}},</p><p>{{applicantFirstName}}'s application {{caseNumber}} to {{programTitle}} is waiting for your part as {{partyRole}}. Please complete it by {{dueDate}}.</p>${link('Complete your part')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>La solicitud {{caseNumber}} de {{applicantFirstName}} a {{programTitle}} espera su parte como {{partyRole}}. Complétela antes del {{dueDate}}.</p>${link('Completar su parte')}${sign}`,
  },
  party_submitted: {
    name: 'Party submitted their part',
    subjectEn: 'The {{partyRole}} completed their part of {{caseNumber}}',
    subjectEs: 'El {{partyRole}} completó su parte de {{caseNumber}}',
    htmlEn: `<p>Hello {{recipientName}},</p><p>The {{partyRole}} of application {{caseNumber}} ({{applicantName}}) completed and signed their part.</p>${link('Open the case')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>El {{partyRole}} de la solicitud {{caseNumber}} ({{applicantName}}) completó y firmó su parte.</p>${link('Abrir el caso')}${sign}`,
  },
  digest: {
    name: 'Daily digest',
    subjectEn: 'Your tasks and mentions today',
    subjectEs: 'Sus tareas y menciones de hoy',
    htmlEn: `<p>Hello {{recipientName}},</p><p>Your due and overdue tasks and new mentions:</p><p>{{taskList}}</p>${link('Open your pending tasks')}${sign}`,
    htmlEs: `<p>Hola {{recipientName}}:</p><p>Sus tareas por vencer y vencidas, y sus nuevas menciones:</p><p>{{taskList}}</p>${link('Abrir sus tareas pendientes')}${sign}`,
  },
};

/** A tenant's default template for every event it lacks one for (new tenants, and every tenant in migrations 0015 and 0019). */
export async function seedEntityMailTemplates(db: Db, entityId: number, events?: readonly MailEvent[]): Promise<void> {
  // A migration names the events its schema knows (later events are added by later migrations).
  const rows = Object.entries(DEFAULT_MAIL_TEMPLATES).filter(([event]) => !events || events.includes(event as MailEvent)).map(([event, t]) => {
    const en = sanitizeBody(t.htmlEn);
    const es = sanitizeBody(t.htmlEs);
    return {
      entity_id: entityId,
      name: t.name,
      event,
      subject_en: t.subjectEn,
      subject_es: t.subjectEs,
      body_html_en: en,
      body_html_es: es,
      body_text_en: htmlToText(en),
      body_text_es: htmlToText(es),
      is_default: true,
    };
  });
  await db
    .insertInto('mail_templates')
    .values(rows as never)
    .onConflict((oc) => oc.doNothing())
    .execute();
}
