/**
 * How `rental-assistance.json` is made: the demo tenant's project exported
 * by `exportProject` (the seed's forms, masters, teams and protocol, made
 * through the engine), given the gallery card's texts, a project uid of its
 * own, and the demo's default texts of the applicant's emails as templates
 * an administrator may make the default. `rental-bundle.api.test.ts` writes
 * the file with GALLERY_WRITE=1 and otherwise fails when the committed file
 * and the demo differ.
 */
import type { Bundle } from '../../../../core/api/gallery.js';
import { DEFAULT_MAIL_TEMPLATES } from '../../../db/seed/templates.js';

const EMAILS = ['application_submitted', 'case_completed', 'case_closed'] as const;

export function rentalApp(exported: Bundle): Bundle {
  const { exportedAt: _at, ...rest } = exported;
  return {
    ...rest,
    app: {
      key: 'rental-assistance',
      title: { en: 'Rental assistance', es: 'Asistencia para el alquiler' },
      description: {
        en: 'Emergency rental assistance as the demo runs it: the application form with household and income, intake, document verification, eligibility and landlord checks in parallel, payment approval (a supervisor above 5,000) and notification.',
        es: 'Asistencia de emergencia para el alquiler como la usa la demostración: el formulario con hogar e ingresos, ingreso, verificación de documentos, elegibilidad y arrendador en paralelo, aprobación del pago (un supervisor por encima de 5.000) y notificación.',
      },
    },
    project: { ...exported.project, uid: 'rental-assistance', description: 'Emergency rental assistance applications.', newApplicationsDeadline: null },
    // The demo names its protocol in English only; the gallery's application has both names (`name` is Spanish, `nameEn` English).
    protocols: exported.protocols.map((p) => (p.code === 'rental-assistance' && !p.nameEn ? { ...p, name: 'Asistencia para el alquiler', nameEn: p.name } : p)),
    mailTemplates: [
      ...exported.mailTemplates,
      ...EMAILS.map((event) => {
        const t = DEFAULT_MAIL_TEMPLATES[event];
        return { key: `rental-${event.replace(/_/g, '-')}`, name: `Rental assistance: ${t.name}`, event, subjectEn: t.subjectEn, subjectEs: t.subjectEs, htmlEn: t.htmlEn, htmlEs: t.htmlEs };
      }),
    ],
  };
}
