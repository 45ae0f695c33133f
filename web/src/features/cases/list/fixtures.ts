import type { CaseItem, ImportJob, SearchProtocol } from '../api.js';

/** Test data of the case lists (not shipped: only tests import it). */
export const caseItem = (over: Partial<CaseItem> = {}): CaseItem => ({
  id: 7,
  number: '2026-11-000007',
  state: 'PENDING',
  protocolId: 1,
  protocolName: 'Rental assistance',
  caseType: 'RADICACION_PUBLICA',
  ownerId: 4,
  ownerName: 'Ana Applicant',
  applicant: 'Lucía Ortega',
  docDate: '2026-11-21T07:31:20.000Z',
  possibleDuplicated: false,
  openTasks: 1,
  createdAt: '2026-11-21T07:31:20.000Z',
  updatedAt: '2026-11-22T07:31:20.000Z',
  ...over,
});

export const rentalProtocol: SearchProtocol = {
  id: 1,
  name: 'Rental assistance',
  fields: [
    { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name' },
    { name: 'lastName', type: 'text', label: 'Apellidos', label_en: 'Last name' },
    { name: 'payRent', type: 'currency', label: 'Renta mensual', label_en: 'Monthly rent' },
    { name: 'housing_assistance', type: 'switch', label: 'Recibe asistencia de vivienda (Sección 8)', label_en: 'Receives housing assistance (Section 8)' },
    { name: 'municipio', type: 'master_select', label: 'Municipio', label_en: 'City', options: [{ value: '05001', label: 'Medellín' }, { value: '76001', label: 'Cali' }] },
    { name: 'barrio', type: 'master_select', label: 'Barrio', label_en: 'Neighbourhood' },
  ],
};

export const importJob = (over: Partial<ImportJob> = {}): ImportJob => ({
  id: 31,
  protocolId: 1,
  protocolName: 'Rental assistance',
  fileName: 'applicants.csv',
  kind: 'csv',
  mode: 'valid_rows',
  userName: 'Demo Coordinator',
  mine: true,
  createdAt: '2026-11-20T15:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  rowsPerSecond: null,
  secondsLeft: null,
  header: ['ref', 'firstName', 'apellido', 'renta', 'owner'],
  total: 1000,
  status: 'uploaded',
  processed: 0,
  created: 0,
  skipped: 0,
  failed: 0,
  errors: [],
  fields: [
    { name: 'firstName', label: 'Nombres', required: true },
    { name: 'lastName', label: 'Apellidos', required: true },
    { name: 'payRent', label: 'Renta mensual', required: true },
    { name: 'householdInformation.memberName', label: 'Integrantes del hogar / Nombre', required: true },
  ],
  sample: [{ ref: 'EXT-1', firstName: 'Nombre1', apellido: 'Apellido 1', renta: '501', owner: '' }],
  ...over,
});
