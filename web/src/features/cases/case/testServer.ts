import type { FormDefinition } from '../../../../../core/forms/definition.js';
import { jsonResponse, mockFetch, sessionWith, settingsFixture } from '../../../test/utils.js';
import type { CaseDetail, CaseItem, Draft, NewOptions } from '../api.js';

/** Test data and a small in-memory cases API for the page tests of this folder (only tests import it). */

export const applicationForm: FormDefinition = {
  name: 'Application',
  description: 'Rental assistance application',
  layout: 'columns',
  languages: ['en', 'es'],
  fields: [
    { name: 'firstName', type: 'text', label: 'Nombres', label_en: 'First name', required: true },
    { name: 'lastName', type: 'text', label: 'Apellidos', label_en: 'Last name', required: true },
    { name: 'payRent', type: 'number', label: 'Renta mensual', label_en: 'Monthly rent', min: 1 },
    { name: 'documents', type: 'file', label: 'Documentos', label_en: 'Documents', accept: ['pdf', 'jpg'] },
  ],
};

export const applicantSession = sessionWith(['wf_casos', 'borradores'], {
  user: { ...sessionWith([]).user, uid: '7', name: 'Ana Applicant', email: 'applicant@demo.test', role: 'applicant', roleName: 'Applicant' },
});

export const caseItem = (over: Partial<CaseItem> = {}): CaseItem => ({
  id: 42,
  number: '2026-11-000042',
  state: 'PENDING',
  protocolId: 1,
  protocolName: 'Rental assistance',
  caseType: 'RADICACION_PUBLICA',
  ownerId: 7,
  ownerName: 'Ana Applicant',
  applicant: 'Lucía Ortega',
  docDate: '2026-11-21T14:00:00.000Z',
  possibleDuplicated: false,
  openTasks: 1,
  createdAt: '2026-11-20T14:00:00.000Z',
  updatedAt: '2026-11-21T14:00:00.000Z',
  ...over,
});

export const caseDetail = (over: Partial<CaseDetail> = {}): CaseDetail => ({
  ...caseItem(),
  data: { firstName: 'Lucía', lastName: 'Ortega', payRent: 1200, municipio: '76001', documents: [{ id: 'f1', name: 'lease.pdf', size: 10 }] },
  optionLabels: { municipio: { '76001': 'Cali' } },
  form: applicationForm,
  formId: 3,
  version: 3,
  participants: [],
  actions: [],
  correction: null,
  canSeeHistory: true,
  canSeeSimilar: true,
  ...over,
});

type Handler = (url: string, init?: RequestInit) => Response | Promise<Response> | undefined;

export interface FakeCases {
  options: NewOptions;
  drafts: Map<number, Draft>;
  /** What the submit of a draft answers: a number, or an error response. */
  submit: (id: number, data: Record<string, unknown>) => Response;
  cases: Map<number, CaseDetail>;
}

export const body = (init?: RequestInit) => JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;

/**
 * Serves the session, the project and the cases API from `state`: drafts
 * are kept with their versions as the server does (a stale version is 409).
 */
export function serveCases(state: FakeCases, session = applicantSession, extra: Handler = () => undefined) {
  let nextId = 100;
  return mockFetch((url, init) => {
    const method = init?.method ?? 'GET';
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(session);
    const answer = extra(url, init);
    if (answer) return answer;
    if (url === '/api/cases/new-options') return jsonResponse(state.options);
    if (url.startsWith('/api/cases/drafts?')) {
      const items = [...state.drafts.values()].map((d) =>
        caseItem({ id: d.id, number: null, state: 'DRAFT', applicant: [d.data.firstName, d.data.lastName].filter(Boolean).join(' '), updatedAt: d.updatedAt }),
      );
      return jsonResponse({ items, total: items.length });
    }
    if (url === '/api/cases/drafts' && method === 'POST') {
      const { protocolId, data } = body(init) as { protocolId: number; data: Record<string, unknown> };
      const protocol = state.options.protocols.find((p) => p.id === protocolId);
      const draft: Draft = { id: nextId++, protocolId, protocolName: protocol?.name ?? '', formId: protocol?.formId ?? 0, form: protocol?.form ?? applicationForm, data, version: 1, updatedAt: '2026-11-21T15:00:00.000Z' };
      state.drafts.set(draft.id, draft);
      return jsonResponse(draft, 201);
    }
    const draftMatch = /^\/api\/cases\/drafts\/(\d+)(\/submit)?$/.exec(url);
    if (draftMatch) {
      const id = Number(draftMatch[1]);
      const draft = state.drafts.get(id);
      if (!draft) return jsonResponse({ error: { code: 'NOT_FOUND', message: 'The requested record was not found.' } }, 404);
      if (draftMatch[2]) return state.submit(id, (body(init).data ?? draft.data) as Record<string, unknown>);
      if (method === 'GET') return jsonResponse(draft);
      if (method === 'DELETE') {
        state.drafts.delete(id);
        return new Response(null, { status: 204 });
      }
      if (method === 'PUT') {
        const { data, version } = body(init) as { data: Record<string, unknown>; version?: number };
        if (version !== undefined && version !== draft.version) {
          return jsonResponse({ error: { code: 'STALE_DRAFT', message: 'Someone else changed this application while you had it open. Reload and try again.' } }, 409);
        }
        draft.data = data;
        draft.version += 1;
        return jsonResponse({ version: draft.version, updatedAt: '2026-11-21T15:05:00.000Z' });
      }
    }
    const caseMatch = /^\/api\/cases\/(\d+)$/.exec(url);
    if (caseMatch && method === 'GET') {
      const found = state.cases.get(Number(caseMatch[1]));
      if (found) return jsonResponse(found);
    }
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

export function fakeCases(over: Partial<FakeCases> = {}): FakeCases {
  return {
    options: { open: true, maintenance: false, autosaveSeconds: 300, protocols: [{ id: 1, name: 'Rental assistance', caseType: 'RADICACION_PUBLICA', formId: 3, form: applicationForm }] },
    drafts: new Map(),
    cases: new Map(),
    submit: () => jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404),
    ...over,
  };
}
