import { useQueryClient } from '@tanstack/react-query';
import type { ProtocolDefinition } from '../../../../core/workflow/protocol.js';

export const CASE_TYPES = ['RADICACION_INTERNA', 'RADICACION_PUBLICA', 'RADICACION_AUTOMATICA'] as const;
export type CaseType = (typeof CASE_TYPES)[number];

/** One protocol of the list (GET /api/protocols). */
export interface ProtocolSummary {
  id: number;
  code: string;
  name: string;
  description: string;
  caseType: CaseType;
  public: boolean;
  mainFormId: number;
  mainFormName: string;
  publishedVersion: number | null;
  tasks: number;
  cases: number;
  publicUrl: string;
}

/** One protocol with its draft and versions (GET /api/protocols/:id). */
export interface ProtocolDetail extends ProtocolSummary {
  definition: ProtocolDefinition;
  versions: Array<{ version: number; publishedAt: string; publishedBy: string | null }>;
  changedSincePublished: boolean;
}

/** The body of POST and PUT /api/protocols. */
export interface ProtocolBody {
  code: string;
  name: string;
  description: string;
  caseType: CaseType;
  public: boolean;
  mainFormId: number;
  definition: ProtocolDefinition;
}

export const TASK_GROUPS = ['REJECTED', 'PENDING', 'BLOCKED', 'UNASSIGNED', 'ACCEPTED'] as const;
export type TaskGroup = (typeof TASK_GROUPS)[number];

/** GET /api/protocols/:id/tasks?state= */
export interface ProtocolTasks {
  counts: Record<TaskGroup, number>;
  items: Array<{ id: number; code: string; name: string; caseId: number; caseNumber: string | null; responsibleName: string | null; teamName: string | null; dueAt: string | null; overdue: boolean }>;
  total: number;
}

export const PROTOCOLS_PATH = '/api/protocols';

export function useInvalidateProtocols() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [PROTOCOLS_PATH] });
}

/** A form the protocol may use (GET /api/forms). */
export interface FormOption {
  id: number;
  code: string;
  name: string;
}
