import type { FormDefinition } from '../../../../core/forms/definition.js';
import type { PendingItem, TaskDetail, TaskItem } from './api.js';

/** Test data of the task screens (not shipped: only tests import it). */
export const intakeForm: FormDefinition = {
  name: 'Intake review',
  description: '',
  layout: 'columns',
  languages: ['en', 'es'],
  fields: [
    { name: 'complete', type: 'radio', label: '¿Completa?', label_en: 'Is the application complete?', required: true, options: [{ value: 'yes', label: 'Sí', label_en: 'Yes' }, { value: 'no', label: 'No', label_en: 'No' }] },
    { name: 'notes', type: 'textarea', label: 'Notas', label_en: 'Notes' },
  ],
};

export const taskItem = (over: Partial<TaskItem> = {}): TaskItem => ({
  id: 5,
  code: 'documents',
  name: 'Document verification',
  state: 'PENDING',
  caseId: 3,
  caseNumber: '2026-11-000003',
  protocolName: 'Rental assistance',
  responsibleId: 2,
  responsibleName: 'Rafael Reviewer',
  teamId: 2,
  teamName: 'Document review',
  dueAt: '2026-11-24T07:31:20.000Z',
  overdue: false,
  createdAt: '2026-11-21T07:31:20.000Z',
  ...over,
});

export const taskDetail = (over: Partial<TaskDetail> = {}): TaskDetail => ({
  ...taskItem(),
  version: 4,
  data: { complete: 'yes' },
  reason: null,
  instructions: null,
  form: { versionId: 9, definition: intakeForm },
  case: {
    id: 3,
    number: '2026-11-000003',
    state: 'PENDING',
    ownerName: 'Ana Applicant',
    data: { firstName: 'María' },
    mainForm: { name: 'Application', description: '', layout: 'columns', languages: ['en', 'es'], fields: [{ name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name' }] },
    possibleDuplicated: true,
    docDate: '2026-11-21T07:31:20.000Z',
    optionLabels: {},
  },
  next: [
    { code: 'eligibility', name: 'Eligibility', when: null },
    { code: 'supervisor', name: 'Supervisor approval', when: 'amount > 5000' },
  ],
  onReject: { to: 'intake', name: 'Intake review' },
  actions: ['accept', 'reject', 'save', 'assign', 'restart'],
  ...over,
});

export const pendingItem = (over: Partial<PendingItem> = {}): PendingItem => ({
  ...taskItem(),
  possibleDuplicated: true,
  requireIncome: false,
  section8: true,
  thirdParty: false,
  actions: ['accept', 'reject'],
  ...over,
});
