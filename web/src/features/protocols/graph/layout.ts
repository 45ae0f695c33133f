import type { ProtocolDefinition, TaskTemplate } from '../../../../../core/workflow/protocol.js';

/** Where the graph of a protocol puts things: pure, so the editor redraws it from the draft on every change. */
export const COLUMN_WIDTH = 290;
export const ROW_HEIGHT = 100;
export const NODE_WIDTH = 170;

export const NOT_ELIGIBLE_ID = '__not_eligible';

export interface GraphNode {
  id: string;
  kind: 'task' | 'notEligible';
  /** A task's depth from the start; tasks no path reaches come after the others. */
  column: number;
  x: number;
  y: number;
  task?: TaskTemplate;
  /** A case starts with this task. */
  start?: boolean;
  /** No accept path from the start reaches this task. */
  unreachable?: boolean;
}

export interface GraphEdge {
  id: string;
  kind: 'accept' | 'reject';
  source: string;
  target: string;
  /** An accept edge's condition. */
  label?: string;
}

export interface ProtocolGraphLayout {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/**
 * Depth of each task reachable from the start: the longest accept path to
 * it, ignoring the edges that close a loop, so a task drawn after two
 * parallel ones sits to their right. Unreachable tasks get no depth.
 */
export function taskDepths(def: Pick<ProtocolDefinition, 'start' | 'tasks'>): Map<string, number> {
  const byCode = new Map(def.tasks.map((t) => [t.code, t]));
  const next = (code: string) => (byCode.get(code)?.onAccept ?? []).map((e) => e.to).filter((to) => byCode.has(to) && to !== code);
  const starts = def.start.filter((code) => byCode.has(code));

  // Depth-first from the start: an edge to a task still on the path closes a loop.
  const forward = new Map<string, string[]>();
  const state = new Map<string, 'open' | 'done'>();
  const visit = (code: string) => {
    state.set(code, 'open');
    const kept: string[] = [];
    for (const to of next(code)) {
      if (state.get(to) === 'open') continue;
      kept.push(to);
      if (!state.has(to)) visit(to);
    }
    forward.set(code, kept);
    state.set(code, 'done');
  };
  for (const code of starts) if (!state.has(code)) visit(code);

  // Longest path over what is left (no loops), in topological order.
  const incoming = new Map<string, number>([...forward.keys()].map((code) => [code, 0]));
  for (const targets of forward.values()) for (const to of targets) incoming.set(to, (incoming.get(to) ?? 0) + 1);
  const depth = new Map<string, number>();
  const queue = [...forward.keys()].filter((code) => incoming.get(code) === 0);
  for (const code of queue) depth.set(code, 0);
  while (queue.length) {
    const code = queue.shift() as string;
    for (const to of forward.get(code) ?? []) {
      depth.set(to, Math.max(depth.get(to) ?? 0, (depth.get(code) ?? 0) + 1));
      incoming.set(to, (incoming.get(to) ?? 1) - 1);
      if (incoming.get(to) === 0) queue.push(to);
    }
  }
  return depth;
}

/**
 * Tasks left to right by depth from the start (tasks no path reaches after
 * the others), each column centred on the same line, and "Not eligible"
 * under them all; accept edges with their condition, reject edges back to
 * their task or down to "Not eligible".
 */
export function layoutProtocol(def: Pick<ProtocolDefinition, 'start' | 'tasks'>): ProtocolGraphLayout {
  const depths = taskDepths(def);
  const known = new Set(def.tasks.map((t) => t.code));
  const starts = new Set(def.start);
  const deepest = Math.max(-1, ...depths.values());
  const notEligible = def.tasks.some((t) => t.onReject && 'notEligible' in t.onReject);

  const columns = new Map<number, GraphNode[]>();
  const nodes: GraphNode[] = def.tasks.map((task) => {
    const depth = depths.get(task.code);
    const node: GraphNode = {
      id: task.code,
      kind: 'task',
      column: depth ?? deepest + 1,
      x: 0,
      y: 0,
      task,
      ...(starts.has(task.code) ? { start: true } : {}),
      ...(depth === undefined ? { unreachable: true } : {}),
    };
    columns.set(node.column, [...(columns.get(node.column) ?? []), node]);
    return node;
  });
  // Each column centred on y = 0.
  for (const [column, list] of columns) {
    list.forEach((node, index) => {
      node.x = column * COLUMN_WIDTH;
      node.y = Math.round((index - (list.length - 1) / 2) * ROW_HEIGHT);
    });
  }
  if (notEligible) {
    const lastColumn = Math.max(0, ...columns.keys());
    const lowest = Math.max(0, ...nodes.map((n) => n.y));
    nodes.push({ id: NOT_ELIGIBLE_ID, kind: 'notEligible', column: lastColumn, x: Math.round((lastColumn * COLUMN_WIDTH) / 2), y: lowest + ROW_HEIGHT + 40 });
  }

  const edges: GraphEdge[] = [];
  for (const task of def.tasks) {
    task.onAccept.forEach((edge, index) => {
      if (!known.has(edge.to)) return;
      const label = edge.when?.trim();
      edges.push({ id: `accept:${task.code}:${index}`, kind: 'accept', source: task.code, target: edge.to, ...(label ? { label } : {}) });
    });
    if (task.onReject && 'to' in task.onReject && known.has(task.onReject.to)) {
      edges.push({ id: `reject:${task.code}`, kind: 'reject', source: task.code, target: task.onReject.to });
    }
    if (task.onReject && 'notEligible' in task.onReject) {
      edges.push({ id: `reject:${task.code}`, kind: 'reject', source: task.code, target: NOT_ELIGIBLE_ID });
    }
  }
  return { nodes, edges };
}
