import { vi } from 'vitest';
import type { TaskTemplate } from '../../../../core/workflow/protocol.js';
import type { ProtocolDetail } from './api.js';

/** Test data of the protocol pages' tests (only tests import it): a task, and protocol 1 with these tasks, published once. */

export const task = (code: string, name: string, over: Partial<TaskTemplate> = {}): TaskTemplate => ({
  code,
  name,
  formId: null,
  responsible: { kind: 'team', teamId: 1 },
  expirationDays: 2,
  join: 'any',
  onAccept: [],
  onReject: { notEligible: true },
  ...over,
});

export const protocolDetail = (tasks: TaskTemplate[]): ProtocolDetail => ({
  id: 1,
  code: 'small',
  name: 'Small protocol',
  nameEn: '',
  description: '',
  caseType: 'RADICACION_INTERNA',
  public: false,
  mainFormId: 1,
  mainFormName: 'Application',
  publishedVersion: 1,
  tasks: tasks.length,
  cases: 0,
  publicUrl: '',
  publicPage: { titleEn: '', titleEs: '', descriptionEn: '', descriptionEs: '', eligibilityEn: '', eligibilityEs: '' },
  definition: { start: ['intake'], tasks, duplicateFields: [], requiredDocumentsField: null, pendingColumns: { requireIncome: [], section8: null, thirdParty: null }, parties: [], awardCaps: null },
  versions: [{ version: 1, publishedAt: '2026-11-21T07:31:20.000Z', publishedBy: 'Carla Coordinator' }],
  changedSincePublished: false,
});

/** React Flow measures its box; jsdom has no layout. */
export function stubResizeObserver(): void {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}
