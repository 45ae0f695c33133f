import type { Db } from '../pool.js';

/** Masters every tenant starts with (the spec's targets name three of them). */
export const SYSTEM_MASTERS = [
  { code: 'departamentos', name: 'Departamentos', public: true, parent: null },
  { code: 'municipios', name: 'Municipios', public: true, parent: 'departamentos' },
  { code: 'definiciones', name: 'Definiciones', public: true, parent: null },
  { code: 'funciones', name: 'Funciones', public: false, parent: null },
  /** Quick comments (issue 15): `name` in Spanish, `name_en` in English (0024); served in the reader's language. */
  { code: 'comentarios_rapidos', name: 'Comentarios rápidos', public: false, parent: null },
  /** Holidays of the business calendar (issue 16): code = the date, YYYY-MM-DD; name = the holiday. */
  { code: 'festivos', name: 'Festivos', public: false, parent: null },
] as const;

export async function seedEntityMasters(db: Db, entityId: number): Promise<void> {
  for (const m of SYSTEM_MASTERS) {
    const parent = m.parent
      ? await db.selectFrom('masters').where('entity_id', '=', entityId).where('code', '=', m.parent).select('id').executeTakeFirstOrThrow()
      : null;
    await db
      .insertInto('masters')
      .values({ entity_id: entityId, code: m.code, name: m.name, public: m.public, parent_id: parent?.id ?? null, system: true })
      .onConflict((oc) => oc.columns(['entity_id', 'code']).doNothing())
      .execute();
  }
}

const DEPARTAMENTOS: Array<[string, string]> = [
  ['05', 'Antioquia'], ['08', 'Atlántico'], ['11', 'Bogotá, D.C.'], ['25', 'Cundinamarca'], ['76', 'Valle del Cauca'],
];
const MUNICIPIOS: Array<[string, string, string]> = [
  ['05001', 'Medellín', '05'], ['05266', 'Envigado', '05'], ['05360', 'Itagüí', '05'], ['08001', 'Barranquilla', '08'],
  ['08758', 'Soledad', '08'], ['11001', 'Bogotá, D.C.', '11'], ['25754', 'Soacha', '25'], ['25899', 'Zipaquirá', '25'],
  ['76001', 'Cali', '76'], ['76520', 'Palmira', '76'],
];
/** Spec section 3: the document checklist (code, Spanish, English: the names readers see in their language, issue 18). */
const DOCUMENTS: Array<[string, string, string]> = [
  ['lease', 'Contrato de arrendamiento (todas las páginas)', 'Lease (all pages)'], ['check_stubs', 'Colillas de pago', 'Check stubs'],
  ['employer_letter', 'Carta del empleador', 'Employer letter'], ['bank_statement', 'Extracto bancario', 'Bank statement'],
  ['unemployment_statement', 'Constancia de desempleo', 'Unemployment statement'], ['ssi_ssdi', 'Verificación de SSI/SSDI', 'SSI/SSDI verification'],
  ['child_support', 'Verificación de manutención o pensión alimenticia', 'Child support/alimony verification'],
  ['zero_income', 'Certificación de cero ingresos', 'Zero income certification form'],
  ['household_agreement', 'Acuerdo de hogar entre arrendador y arrendatario', 'Landlord and renter household agreement'], ['landlord_w9', 'W9 del arrendador', 'Landlord W9'],
  ['mortgage_statement', 'Extracto de la hipoteca', 'Mortgage statement'], ['forbearance_denial', 'Negación de indulgencia', 'Forbearance denial'],
  ['lease_ledger', 'Libro de pagos del arriendo', 'Lease ledger'], ['profit_loss', 'Estado de pérdidas y ganancias', 'Profit and loss statement'], ['other', 'Otro', 'Other'],
];
const DOCUMENT_TYPES: Array<[string, string, string]> = [
  ['CC', 'Cédula de ciudadanía', 'Citizenship ID card'], ['CE', 'Cédula de extranjería', 'Foreigner ID card'], ['PA', 'Pasaporte', 'Passport'],
  ['SSN', 'Número de Seguro Social', 'Social Security Number'],
];
/** Spec section 3: the income-source flags of an application. */
const INCOME_SOURCES: Array<[string, string, string]> = [
  ['sourceNoPayStub', 'Sin colilla de pago', 'No pay stub'], ['sourceUnemployment', 'Desempleo', 'Unemployment'], ['sourceSSISSDI', 'SSI/SSDI', 'SSI/SSDI'],
  ['sourceChildSupport', 'Manutención', 'Child support'], ['sourceSNAP', 'SNAP', 'SNAP'], ['sourceLIHEAP', 'LIHEAP', 'LIHEAP'], ['sourceWIC', 'WIC', 'WIC'], ['sourceTANIF', 'TANF', 'TANF'],
];
const FUNCIONES: Array<[string, string, string]> = [
  ['intake', 'Ingreso', 'Intake'], ['review', 'Revisión de documentos', 'Document review'], ['eligibility', 'Elegibilidad', 'Eligibility'], ['payments', 'Pagos', 'Payments'],
];

/** Quick comments: code, English, Spanish. */
const QUICK_COMMENTS: Array<[string, string, string]> = [
  ['missing_docs', 'Some documents are missing: please upload them from your application page.', 'Faltan documentos: súbalos desde la página de su solicitud.'],
  ['illegible', 'A document is not legible: please upload a clearer copy.', 'Un documento no es legible: suba una copia más clara.'],
  ['docs_received', 'We received your documents and are reviewing them.', 'Recibimos sus documentos y los estamos revisando.'],
  ['ready_for_review', 'The file is complete and ready for review.', 'El expediente está completo y listo para revisión.'],
];

/** The demo's holidays: US federal holidays of 2026 and 2027, on the day they are observed (migration 0016 gave existing tenants the same). */
export const US_FEDERAL_HOLIDAYS: Array<[string, string]> = [
  ['2026-01-01', "New Year's Day"], ['2026-01-19', 'Martin Luther King Jr. Day'], ['2026-05-25', 'Memorial Day'],
  ['2026-06-19', 'Juneteenth'], ['2026-07-03', 'Independence Day (observed)'], ['2026-09-07', 'Labor Day'],
  ['2026-11-11', 'Veterans Day'], ['2026-11-26', 'Thanksgiving Day'], ['2026-12-25', 'Christmas Day'],
  ['2027-01-01', "New Year's Day"], ['2027-01-18', 'Martin Luther King Jr. Day'], ['2027-05-31', 'Memorial Day'],
  ['2027-06-18', 'Juneteenth (observed)'], ['2027-07-05', 'Independence Day (observed)'], ['2027-09-06', 'Labor Day'],
  ['2027-11-11', 'Veterans Day'], ['2027-11-25', 'Thanksgiving Day'], ['2027-12-24', 'Christmas Day (observed)'],
];

/** The demo region and definitions, so selects have something to offer from the first minute. */
/**
 * The items every tenant starts with in its built-in masters (issue 20: an
 * agency that registers itself gets them too): the spec's document
 * checklist (`definiciones`), the functions, the quick comments and the US
 * federal holidays of the business calendar. The places (`departamentos`,
 * `municipios`) are the demo's sample only: an application brings its own
 * (gallery bundles carry the items of the built-in masters their forms use).
 */
export async function seedEntityDefaultItems(db: Db, entityId: number): Promise<void> {
  const masters = new Map((await db.selectFrom('masters').where('entity_id', '=', entityId).select(['id', 'code']).execute()).map((m) => [m.code, m.id]));
  const put = async (code: string, items: Array<[string, string] | [string, string, string]>) => {
    await db.insertInto('master_items').values(items.map(([c, n, en]) => ({ entity_id: entityId, master_id: masters.get(code) as number, code: c, name: n, name_en: en ?? '' }))).execute();
  };
  await put('definiciones', DOCUMENTS);
  await put('funciones', FUNCIONES);
  await put('festivos', US_FEDERAL_HOLIDAYS);
  await db
    .insertInto('master_items')
    .values(QUICK_COMMENTS.map(([c, en, es]) => ({ entity_id: entityId, master_id: masters.get('comentarios_rapidos') as number, code: c, name: es, name_en: en })))
    .execute();
}

export async function seedDemoMasterItems(db: Db, entityId: number): Promise<void> {
  const masters = new Map((await db.selectFrom('masters').where('entity_id', '=', entityId).select(['id', 'code']).execute()).map((m) => [m.code, m.id]));
  const extra = async (code: string, name: string) => {
    const row = await db.insertInto('masters').values({ entity_id: entityId, code, name, public: true }).returning('id').executeTakeFirstOrThrow();
    masters.set(code, row.id);
  };
  await extra('document_types', 'Document types');
  await extra('income_sources', 'Income sources');
  const put = async (code: string, items: Array<[string, string] | [string, string, string]>) => {
    await db.insertInto('master_items').values(items.map(([c, n, en]) => ({ entity_id: entityId, master_id: masters.get(code) as number, code: c, name: n, name_en: en ?? '' }))).execute();
  };
  await put('departamentos', DEPARTAMENTOS);
  await put('document_types', DOCUMENT_TYPES);
  await put('income_sources', INCOME_SOURCES);
  await seedEntityDefaultItems(db, entityId);
  const deps = new Map(
    (await db.selectFrom('master_items').where('master_id', '=', masters.get('departamentos') as number).select(['id', 'code']).execute()).map((d) => [d.code, d.id]),
  );
  await db
    .insertInto('master_items')
    .values(MUNICIPIOS.map(([c, n, d]) => ({ entity_id: entityId, master_id: masters.get('municipios') as number, code: c, name: n, parent_item_id: deps.get(d) as number })))
    .execute();
}
