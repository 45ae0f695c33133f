import type { FieldDef, FormDefinition } from '../../../core/forms/definition.js';
import { parseFormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../pool.js';

/**
 * The demo forms: the rental-assistance application (the case fields of
 * spec section 3) and the task forms the demo protocol uses. `label` is
 * Spanish and `label_en` English, as in the spec's field definitions.
 */
const f = (name: string, type: FieldDef['type'], label: string, label_en: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label, label_en, ...extra });
const yesNo = [
  { value: 'yes', label: 'Sí', label_en: 'Yes' },
  { value: 'no', label: 'No', label_en: 'No' },
];

const SOURCES: Array<[string, string, string]> = [
  ['sourceNoPayStub', 'Sin colilla de pago', 'No pay stub'], ['sourceUnemployment', 'Desempleo', 'Unemployment'], ['sourceSSISSDI', 'SSI/SSDI', 'SSI/SSDI'],
  ['sourceChildSupport', 'Cuota alimentaria', 'Child support'], ['sourceSNAP', 'SNAP', 'SNAP'], ['sourceLIHEAP', 'LIHEAP', 'LIHEAP'], ['sourceWIC', 'WIC', 'WIC'], ['sourceTANIF', 'TANF', 'TANF'],
];

export const APPLICATION_FORM: FormDefinition = {
  name: 'Rental assistance application',
  description: 'Application for emergency rental assistance (tenant, household, income, rent and documents).',
  layout: 'stepper',
  languages: ['en', 'es'],
  fields: [
    f('application', 'stepper', 'Solicitud', 'Application', {
      children: [
        f('step_applicant', 'step', 'Solicitante', 'Applicant', {
          children: [
            f('firstName', 'text', 'Nombres', 'First name', { required: true, maxLength: 60 }),
            f('lastName', 'text', 'Apellidos', 'Last name', { required: true, maxLength: 60 }),
            f('documentType', 'master_select', 'Tipo de documento', 'Document type', { required: true, master: 'document_types' }),
            f('documentNumber', 'text', 'Número de documento', 'Document number', { required: true, maxLength: 20, pattern: '^[A-Za-z0-9-]+$' }),
            f('email', 'email', 'Correo electrónico', 'Email', { required: true }),
            f('phone', 'phone', 'Celular', 'Cellphone', { required: true, help: '10 dígitos', help_en: '10 digits' }),
            f('departamento', 'master_select', 'Departamento', 'State', { required: true, master: 'departamentos' }),
            f('municipio', 'master_select', 'Municipio', 'City', { required: true, master: 'municipios', type_aux: 'departamento' }),
            f('zipCode', 'zip', 'Código postal', 'Zip code', { required: true }),
          ],
        }),
        f('step_household', 'step', 'Hogar', 'Household', {
          children: [
            f('householdInformation', 'repeat', 'Integrantes del hogar', 'Household members', {
              minRows: 1,
              maxRows: 12,
              children: [
                f('memberName', 'text', 'Nombre', 'Name', { required: true, maxLength: 100 }),
                f('relationship', 'select', 'Parentesco', 'Relationship', {
                  required: true,
                  options: [
                    { value: 'self', label: 'Solicitante', label_en: 'Applicant' },
                    { value: 'spouse', label: 'Cónyuge', label_en: 'Spouse' },
                    { value: 'child', label: 'Hijo(a)', label_en: 'Child' },
                    { value: 'other', label: 'Otro', label_en: 'Other' },
                  ],
                }),
                f('age', 'number', 'Edad', 'Age', { required: true, min: 0, max: 120 }),
                f('monthlyIncome', 'currency', 'Ingreso mensual', 'Monthly income', { min: 0, max: 100000, visibleWhen: 'age >= 18', showWhenTable: "role != 'applicant'" }),
                f('disability', 'checkbox', 'Discapacidad', 'Disability', { headers: false }),
              ],
            }),
          ],
        }),
        f('step_income', 'step', 'Ingresos y renta', 'Income and rent', {
          children: [
            f('payRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1, max: 10000 }),
            // Issue 23: the landlord is invited by email to complete their side (the protocol's `parties`).
            f('landlord', 'party', 'Su arrendador', 'Your landlord', {
              partyRole: 'landlord',
              help: 'Le enviaremos un enlace para que confirme el arriendo y dé sus datos de pago.',
              help_en: 'We will email them a link to confirm the tenancy and give their payment details.',
            }),
            ...SOURCES.map(([name, es, en]) => f(name, 'checkbox', es, en)),
            f('noincome_require_zipcode', 'switch', 'Sin ingresos: confirmar código postal', 'No income: confirm the zip code'),
            f('housing_assistance', 'switch', 'Recibe asistencia de vivienda (Sección 8)', 'Receives housing assistance (Section 8)'),
            f('income_required_housing_assistance', 'currency', 'Valor de la asistencia', 'Assistance amount', { required: true, min: 0, visibleWhen: 'housing_assistance == true' }),
            f('receive_assistance_alert', 'switch', 'Deseo recibir alertas sobre la ayuda', 'I want alerts about the assistance'),
          ],
        }),
        f('step_documents', 'step', 'Tercero y documentos', 'Third party and documents', {
          children: [
            f('working_third_party', 'switch', '¿Le ayuda un tercero?', 'Is a third party helping you?'),
            f('third_party_email', 'email', 'Correo del tercero', 'Third party email', { required: true, visibleWhen: 'working_third_party == true' }),
            f('third_party_email_aux', 'email', 'Correo alterno del tercero', 'Third party alternate email', { visibleWhen: 'working_third_party == true' }),
            f('documents', 'file', 'Documentos (contrato, colillas, extractos)', 'Documents (lease, pay stubs, statements)', { accept: ['pdf', 'jpg', 'jpeg', 'png'], maxSizeMb: 10 }),
            f('declaration', 'static', 'Declaro que la información es verdadera.', 'I declare the information is true.'),
          ],
        }),
      ],
    }),
  ],
};

export const TASK_FORMS: Array<{ code: string; def: FormDefinition }> = [
  {
    code: 'intake-review',
    def: {
      name: 'Intake review', description: 'Is the application complete?', layout: 'columns', languages: ['en', 'es'],
      fields: [
        f('complete', 'radio', '¿La solicitud está completa?', 'Is the application complete?', { required: true, options: yesNo }),
        f('missingInfo', 'textarea', 'Información faltante', 'Missing information', { required: true, maxLength: 2000, visibleWhen: "complete == 'no'" }),
        f('notes', 'textarea', 'Notas', 'Notes', { maxLength: 2000 }),
      ],
    },
  },
  {
    code: 'document-verification',
    def: {
      name: 'Document verification', description: 'Check every document of the application.', layout: 'columns', languages: ['en', 'es'],
      fields: [
        f('verified', 'select_multiple', 'Documentos verificados', 'Documents verified', {
          required: true,
          options: [
            { value: 'lease', label: 'Contrato (todas las páginas)', label_en: 'Lease (all pages)' },
            { value: 'check_stubs', label: 'Colillas de pago', label_en: 'Check stubs' },
            { value: 'bank_statement', label: 'Extracto bancario', label_en: 'Bank statement' },
            { value: 'landlord_w9', label: 'W9 del arrendador', label_en: 'Landlord W9' },
            { value: 'zero_income', label: 'Certificación de cero ingresos', label_en: 'Zero income certification form' },
          ],
        }),
        f('allDocumentsOk', 'checkbox', 'Todos los documentos son legibles y vigentes', 'All documents are legible and current', { required: true }),
        f('comments', 'textarea', 'Comentarios', 'Comments', { maxLength: 2000 }),
      ],
    },
  },
  {
    code: 'eligibility',
    def: {
      name: 'Eligibility', description: 'Decide whether the household is eligible.', layout: 'columns', languages: ['en', 'es'],
      fields: [
        f('eligible', 'radio', '¿El hogar es elegible?', 'Is the household eligible?', { required: true, options: yesNo }),
        f('amiPercent', 'number', 'Porcentaje del ingreso medio del área', 'Percent of area median income', { required: true, min: 0, max: 300 }),
        f('reason', 'textarea', 'Motivo', 'Reason', { required: true, maxLength: 2000, visibleWhen: "eligible == 'no'" }),
      ],
    },
  },
  {
    code: 'landlord-verification',
    def: {
      name: 'Landlord verification', description: 'Confirm the landlord and the lease.', layout: 'columns', languages: ['en', 'es'],
      fields: [
        f('landlordName', 'text', 'Nombre del arrendador', 'Landlord name', { required: true, maxLength: 120 }),
        f('landlordEmail', 'email', 'Correo del arrendador', 'Landlord email', { required: true }),
        f('landlordPhone', 'phone', 'Teléfono del arrendador', 'Landlord phone'),
        f('w9', 'file', 'Formulario W9', 'W9 form', { accept: ['pdf'], maxSizeMb: 10 }),
        f('leaseConfirmed', 'checkbox', 'El arrendador confirma el contrato', 'The landlord confirms the lease', { required: true }),
      ],
    },
  },
  {
    code: 'payment-approval',
    def: {
      name: 'Payment approval', description: 'Approve the payment to the landlord.', layout: 'columns', languages: ['en', 'es'],
      fields: [
        f('amount', 'currency', 'Valor a pagar', 'Amount to pay', { required: true, min: 1, max: 50000 }),
        f('paymentMethod', 'select', 'Medio de pago', 'Payment method', {
          required: true,
          options: [
            { value: 'ach', label: 'Transferencia', label_en: 'Bank transfer (ACH)' },
            { value: 'check', label: 'Cheque', label_en: 'Check' },
          ],
        }),
        f('approved', 'switch', 'Aprobado', 'Approved'),
        f('approverNotes', 'textarea', 'Notas de aprobación', 'Approval notes', { maxLength: 2000 }),
      ],
    },
  },
];

/** Issue 23: the landlord's side of a rental-assistance application, filled by the landlord through their link. */
export const LANDLORD_FORM: FormDefinition = {
  name: 'Landlord side',
  description: 'The landlord confirms the tenancy, the rent owed and uploads the rent ledger and a W-9.',
  layout: 'columns',
  languages: ['en', 'es'],
  fields: [
    f('propertyAddress', 'text', 'Dirección del inmueble', 'Property address', { required: true, maxLength: 200 }),
    f('unit', 'text', 'Apartamento o unidad', 'Apartment or unit', { maxLength: 30 }),
    f('monthlyRent', 'currency', 'Renta mensual', 'Monthly rent', { required: true, min: 1, max: 20000 }),
    f('arrears', 'repeat', 'Renta adeudada por mes', 'Rent owed by month', {
      minRows: 0,
      maxRows: 24,
      children: [
        f('month', 'text', 'Mes (AAAA-MM)', 'Month (YYYY-MM)', { required: true, pattern: '^\\d{4}-(0[1-9]|1[0-2])$', maxLength: 7 }),
        f('owed', 'currency', 'Valor adeudado', 'Amount owed', { required: true, min: 0, max: 20000 }),
      ],
    }),
    f('rentLedger', 'file', 'Libro de pagos de la renta', 'Rent ledger', { required: true, accept: ['pdf', 'csv', 'xlsx', 'jpg', 'jpeg', 'png'], maxSizeMb: 10 }),
    f('w9', 'file', 'Formulario W-9', 'IRS form W-9', { required: true, accept: ['pdf'], maxSizeMb: 10 }),
  ],
};

export async function seedDemoForms(db: Db, entityId: number): Promise<void> {
  const all = [{ code: 'rental-application', def: APPLICATION_FORM }, ...TASK_FORMS, { code: 'landlord-side', def: LANDLORD_FORM }];
  for (const { code, def } of all) {
    const checked = parseFormDefinition(def);
    const form = await db.insertInto('forms').values({ entity_id: entityId, code, name: checked.name, description: checked.description }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('form_versions').values({ entity_id: entityId, form_id: form.id, version: 1, definition: JSON.stringify(checked) }).execute();
  }
}
