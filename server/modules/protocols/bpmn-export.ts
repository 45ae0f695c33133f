/**
 * A protocol version as BPMN 2.0 XML that a standard modeler (bpmn-js,
 * Camunda Modeler) opens as it is. Pure: the caller gives the definition and
 * the names of what it points at (form codes, team names, user emails).
 *
 * How the protocol maps:
 * - each task is a `bpmn:userTask` whose id is the task's code, with its
 *   form, responsible, deadline and rejection in a `casebook:task`
 *   extension element (bpmn-casebook.ts);
 * - the start tasks follow one start event (through a parallel gateway when
 *   there are several); a task with no accept edge leads to the end event;
 * - a task's accept edges: one without a condition is a plain sequence flow;
 *   several without are a parallel gateway; edges with conditions go through
 *   an exclusive gateway whose flows carry the condition as a
 *   `conditionExpression` in Casebook's own syntax (language
 *   `urn:casebook:condition`, evaluated by core/forms/expr.ts on import,
 *   never as code). The engine takes every edge whose condition holds, so a
 *   protocol's conditions are written to exclude each other, as an exclusive
 *   gateway's must; with edges of both kinds, a parallel gateway leads to the
 *   plain targets and to the exclusive gateway;
 * - a task that waits for all its predecessors (`join: 'all'`) is entered
 *   through a parallel joining gateway;
 * - the diagram: the protocol keeps no positions, so the graph is laid out
 *   left to right in layers (the longest path from the start, loops ignored),
 *   each layer's nodes ordered by where their predecessors sit.
 */
import type { ProtocolDefinition, TaskTemplate } from '../../../core/workflow/protocol.js';
import { CONDITION_LANGUAGE, type Element, newModdle } from './bpmn-casebook.js';

/** The names of what a definition points at by id. */
export interface ExportNames {
  formCode(id: number): string | undefined;
  teamName(id: number): string | undefined;
  userEmail(id: number): string | undefined;
}

export type NodeKind = 'start' | 'end' | 'task' | 'exclusive' | 'parallel';

export interface BpmnNode {
  id: string;
  kind: NodeKind;
  name?: string;
  task?: TaskTemplate;
}

export interface BpmnFlow {
  id: string;
  from: string;
  to: string;
  condition?: string;
}

export interface BpmnGraph {
  nodes: BpmnNode[];
  flows: BpmnFlow[];
}

// Generated ids start with a capital letter: task codes never do (core/workflow/protocol.ts), so they cannot clash.
export const START_ID = 'StartEvent_1';
export const END_ID = 'EndEvent_1';

/** The protocol as BPMN flow nodes and sequence flows. */
export function protocolGraph(def: Pick<ProtocolDefinition, 'start' | 'tasks'>, endName?: string): BpmnGraph {
  const nodes: BpmnNode[] = [{ id: START_ID, kind: 'start' }];
  const flows: BpmnFlow[] = [];
  let n = 0;
  const flow = (from: string, to: string, condition?: string) => flows.push({ id: `Flow_${++n}`, from, to, ...(condition !== undefined && { condition }) });
  const byCode = new Map(def.tasks.map((t) => [t.code, t]));
  // Where an arrow into a task ends: the task, or the gateway that waits for all its predecessors.
  const entry = (code: string) => (byCode.get(code)?.join === 'all' ? `Gateway_join_${code}` : code);

  for (const t of def.tasks) {
    if (t.join === 'all') nodes.push({ id: entry(t.code), kind: 'parallel' });
    nodes.push({ id: t.code, kind: 'task', name: t.name, task: t });
  }
  const starts = def.start.filter((code) => byCode.has(code));
  if (starts.length === 1) flow(START_ID, entry(starts[0]));
  else if (starts.length > 1) {
    nodes.push({ id: 'Gateway_start', kind: 'parallel' });
    flow(START_ID, 'Gateway_start');
    for (const code of starts) flow('Gateway_start', entry(code));
  }
  let ends = false;
  for (const t of def.tasks) {
    if (t.join === 'all') flow(entry(t.code), t.code);
    const edges = t.onAccept.filter((e) => byCode.has(e.to));
    const plain = edges.filter((e) => e.when === undefined || e.when.trim() === '');
    const guarded = edges.filter((e) => !plain.includes(e));
    if (edges.length === 0) {
      flow(t.code, END_ID);
      ends = true;
      continue;
    }
    let choiceFrom = t.code;
    if (plain.length === 1 && guarded.length === 0) flow(t.code, entry(plain[0].to));
    else if (plain.length > 0) {
      const split = `Gateway_split_${t.code}`;
      nodes.push({ id: split, kind: 'parallel' });
      flow(t.code, split);
      for (const e of plain) flow(split, entry(e.to));
      choiceFrom = split;
    }
    if (guarded.length > 0) {
      const choice = `Gateway_choice_${t.code}`;
      nodes.push({ id: choice, kind: 'exclusive' });
      flow(choiceFrom, choice);
      for (const e of guarded) flow(choice, entry(e.to), (e.when as string).trim());
    }
  }
  if (ends || def.tasks.length === 0) nodes.push({ id: END_ID, kind: 'end', name: endName });
  if (def.tasks.length === 0) flow(START_ID, END_ID);
  return { nodes, flows };
}

// ---------------------------------------------------------------- layout

export const SIZE: Record<NodeKind, { w: number; h: number }> = {
  start: { w: 36, h: 36 },
  end: { w: 36, h: 36 },
  task: { w: 100, h: 80 },
  exclusive: { w: 50, h: 50 },
  parallel: { w: 50, h: 50 },
};
const COLUMN = 160;
const ROW = 120;
const LEFT = 120;
const TOP = 100;

export interface Bounds {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  shapes: Map<string, Bounds>;
  edges: Map<string, Array<{ x: number; y: number }>>;
}

/**
 * Layers from the start (the longest path, flows that close a loop left out);
 * a flow that spans several layers passes through a placeholder in each, so
 * that it goes round the nodes between; rows ordered by the predecessors' rows.
 */
export function layoutGraph(graph: BpmnGraph): Layout {
  const out = new Map<string, BpmnFlow[]>(graph.nodes.map((x) => [x.id, []]));
  for (const f of graph.flows) out.get(f.from)?.push(f);

  // Depth-first from every node without an incoming flow (the start first): a flow to a node still open closes a loop.
  const back = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const f of out.get(id) ?? []) {
      if (state.get(f.to) === 'open') back.add(f.id);
      else if (!state.has(f.to)) visit(f.to);
    }
    state.set(id, 'done');
  };
  const hasIncoming = new Set(graph.flows.map((f) => f.to));
  for (const x of graph.nodes) if (!hasIncoming.has(x.id) && !state.has(x.id)) visit(x.id);
  for (const x of graph.nodes) if (!state.has(x.id)) visit(x.id);

  // Longest path over the forward flows, in topological order.
  const forward = graph.flows.filter((f) => !back.has(f.id) && f.from !== f.to);
  const indegree = new Map<string, number>(graph.nodes.map((x) => [x.id, 0]));
  for (const f of forward) indegree.set(f.to, (indegree.get(f.to) ?? 0) + 1);
  const layer = new Map<string, number>();
  const queue = graph.nodes.filter((x) => indegree.get(x.id) === 0).map((x) => x.id);
  for (const id of queue) layer.set(id, 0);
  while (queue.length) {
    const id = queue.shift() as string;
    for (const f of out.get(id) ?? []) {
      if (back.has(f.id) || f.from === f.to) continue;
      layer.set(f.to, Math.max(layer.get(f.to) ?? 0, (layer.get(id) ?? 0) + 1));
      indegree.set(f.to, (indegree.get(f.to) ?? 1) - 1);
      if (indegree.get(f.to) === 0) queue.push(f.to);
    }
  }
  // The end event sits after everything.
  if (layer.has(END_ID)) layer.set(END_ID, Math.max(0, ...[...layer.values()]));

  // Placeholders: a long forward flow gets one per layer it crosses.
  const slots = graph.nodes.map((x) => ({ id: x.id, layer: layer.get(x.id) ?? 0, preds: [] as string[] }));
  const slotOf = new Map(slots.map((x) => [x.id, x]));
  const through = new Map<string, string[]>();
  for (const f of forward) {
    const from = layer.get(f.from) ?? 0;
    const to = layer.get(f.to) ?? 0;
    let previous = f.from;
    const placeholders: string[] = [];
    for (let l = from + 1; l < to; l++) {
      const id = `${f.id}#${l}`;
      const slot = { id, layer: l, preds: [previous] };
      slots.push(slot);
      slotOf.set(id, slot);
      placeholders.push(id);
      previous = id;
    }
    through.set(f.id, placeholders);
    slotOf.get(f.to)?.preds.push(previous);
  }

  // Rows: each layer in the order of the mean row of its predecessors, then the order of the definition.
  const rows = new Map<string, number>();
  const order = new Map(slots.map((x, i) => [x.id, i]));
  const layers = Math.max(0, ...slots.map((x) => x.layer)) + 1;
  const byLayer = Array.from({ length: layers }, (_, l) => slots.filter((x) => x.layer === l));
  for (const here of byLayer) {
    const weight = (slot: (typeof slots)[number]) => {
      const preds = slot.preds.filter((p) => rows.has(p)).map((p) => rows.get(p) as number);
      return preds.length ? preds.reduce((a, b) => a + b, 0) / preds.length : Number.POSITIVE_INFINITY;
    };
    here.sort((a, b) => weight(a) - weight(b) || (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    here.forEach((x, i) => rows.set(x.id, i));
  }
  // Each layer centred on the tallest one.
  const tallest = Math.max(1, ...byLayer.map((here) => here.length));
  const centre = (id: string) => {
    const slot = slotOf.get(id) as (typeof slots)[number];
    return { x: LEFT + slot.layer * COLUMN, y: TOP + ((tallest - byLayer[slot.layer].length) / 2 + (rows.get(id) ?? 0)) * ROW };
  };
  const shapes = new Map<string, Bounds>();
  for (const x of graph.nodes) {
    const c = centre(x.id);
    const { w, h } = SIZE[x.kind];
    shapes.set(x.id, { x: Math.round(c.x - w / 2), y: Math.round(c.y - h / 2), width: w, height: h });
  }

  const bottom = Math.max(...[...shapes.values()].map((b) => b.y + b.height)) + 40;
  const edges = new Map<string, Array<{ x: number; y: number }>>();
  for (const f of graph.flows) {
    const s = shapes.get(f.from) as Bounds;
    const t = shapes.get(f.to) as Bounds;
    if (!forward.includes(f)) {
      // Back to an earlier node: out of the bottom, along under the diagram, into the bottom.
      const sx = Math.round(s.x + s.width / 2);
      const tx = Math.round(t.x + t.width / 2);
      edges.set(f.id, [{ x: sx, y: s.y + s.height }, { x: sx, y: bottom }, { x: tx, y: bottom }, { x: tx, y: t.y + t.height }]);
      continue;
    }
    // Right side out, through the placeholders, left side in; bends half-way between columns.
    const stops = [{ x: s.x + s.width, y: Math.round(s.y + s.height / 2) }, ...(through.get(f.id) ?? []).map(centre), { x: t.x, y: Math.round(t.y + t.height / 2) }];
    const points = [stops[0]];
    for (let i = 1; i < stops.length; i++) {
      const p = points[points.length - 1];
      const q = stops[i];
      if (p.y !== q.y) {
        const mid = Math.round(i === stops.length - 1 && stops.length > 2 ? q.x - (COLUMN - SIZE.task.w) / 2 : (p.x + q.x) / 2);
        points.push({ x: mid, y: p.y }, { x: mid, y: q.y });
      }
      if (i === stops.length - 1) points.push(q);
    }
    edges.set(f.id, points);
  }
  return { shapes, edges };
}

// ---------------------------------------------------------------- XML

const TYPE: Record<NodeKind, string> = {
  start: 'bpmn:StartEvent',
  end: 'bpmn:EndEvent',
  task: 'bpmn:UserTask',
  exclusive: 'bpmn:ExclusiveGateway',
  parallel: 'bpmn:ParallelGateway',
};

/** A process id from the protocol's code: an XML name that does not start with a task code's lower-case letter. */
const processId = (code: string) => `Process_${code.replace(/[^A-Za-z0-9_.-]/g, '_')}`;

export interface ExportMeta {
  code: string;
  name: string;
  /** What the end event says (the page's language is unknown: the caller chooses). */
  endName?: string;
}

/** The BPMN 2.0 XML of a protocol definition. */
export async function protocolToBpmn(def: ProtocolDefinition, names: ExportNames, meta: ExportMeta): Promise<string> {
  const moddle = newModdle();
  const graph = protocolGraph(def, meta.endName);
  const layout = layoutGraph(graph);

  const elements = new Map<string, Element>();
  const incoming = new Map<string, Element[]>();
  const outgoing = new Map<string, Element[]>();
  const flowNodes: Element[] = graph.nodes.map((x) => {
    const e = moddle.create(TYPE[x.kind], { id: x.id, ...(x.name && { name: x.name }) });
    if (x.task) e.extensionElements = moddle.create('bpmn:ExtensionElements', { values: [taskExtension(moddle, x.task, names)] });
    elements.set(x.id, e);
    incoming.set(x.id, []);
    outgoing.set(x.id, []);
    return e;
  });
  const sequenceFlows: Element[] = graph.flows.map((f) => {
    const e = moddle.create('bpmn:SequenceFlow', {
      id: f.id,
      sourceRef: elements.get(f.from),
      targetRef: elements.get(f.to),
      ...(f.condition !== undefined && {
        // The condition is its label too, so that the diagram shows it.
        name: f.condition,
        conditionExpression: moddle.create('bpmn:FormalExpression', { body: f.condition, language: CONDITION_LANGUAGE }),
      }),
    });
    outgoing.get(f.from)?.push(e);
    incoming.get(f.to)?.push(e);
    return e;
  });
  for (const [id, e] of elements) {
    e.incoming = incoming.get(id);
    e.outgoing = outgoing.get(id);
  }

  const process = moddle.create('bpmn:Process', {
    id: processId(meta.code),
    name: meta.name,
    isExecutable: true,
    flowElements: [...flowNodes, ...sequenceFlows],
    extensionElements: moddle.create('bpmn:ExtensionElements', { values: [protocolExtension(moddle, def)] }),
  });

  const shapes = graph.nodes.map((x) => {
    const b = layout.shapes.get(x.id) as Bounds;
    return moddle.create('bpmndi:BPMNShape', {
      id: `${x.id}_di`,
      bpmnElement: elements.get(x.id),
      bounds: moddle.create('dc:Bounds', { ...b }),
      ...(x.kind === 'exclusive' && { isMarkerVisible: true }),
    });
  });
  const edges = graph.flows.map((f, i) =>
    moddle.create('bpmndi:BPMNEdge', {
      id: `${f.id}_di`,
      bpmnElement: sequenceFlows[i],
      waypoint: (layout.edges.get(f.id) ?? []).map((p) => moddle.create('dc:Point', p)),
    }),
  );
  const diagram = moddle.create('bpmndi:BPMNDiagram', {
    id: 'BPMNDiagram_1',
    plane: moddle.create('bpmndi:BPMNPlane', { id: 'BPMNPlane_1', bpmnElement: process, planeElement: [...shapes, ...edges] }),
  });
  const definitions = moddle.create('bpmn:Definitions', {
    id: 'Definitions_1',
    targetNamespace: 'http://bpmn.io/schema/bpmn',
    exporter: 'Casebook',
    exporterVersion: '1',
    rootElements: [process],
    diagrams: [diagram],
  });
  const { xml } = await moddle.toXML(definitions, { format: true });
  return xml;
}

function taskExtension(moddle: ReturnType<typeof newModdle>, t: TaskTemplate, names: ExportNames): Element {
  const r = t.responsible;
  const who =
    r.kind === 'team' ? { responsible: 'team', team: names.teamName(r.teamId) } : r.kind === 'user' ? { responsible: 'user', user: names.userEmail(r.userId) } : r.kind === 'task' ? { responsible: 'task', task: r.task } : { responsible: 'owner' };
  const attrs: Record<string, unknown> = {
    ...(t.name_en && { nameEn: t.name_en }),
    ...(t.formId !== null && { form: names.formCode(t.formId) }),
    ...who,
    ...(t.expirationDays !== null && { expirationDays: t.expirationDays }),
    ...(t.expirationUnit && { expirationUnit: t.expirationUnit }),
    ...(t.onReject && 'to' in t.onReject && { rejectTo: t.onReject.to }),
    ...(t.onReject && 'notEligible' in t.onReject && { rejectEnds: true }),
    ...(t.escalation && { escalationRole: t.escalation.role, escalationAfterDays: t.escalation.afterDays }),
    ...(t.award && { award: true }),
    ...(t.waitsForParty && { waitsForParty: t.waitsForParty }),
  };
  return moddle.create('casebook:Task', Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)));
}

function protocolExtension(moddle: ReturnType<typeof newModdle>, def: ProtocolDefinition): Element {
  const caps = def.awardCaps;
  const attrs: Record<string, string | number | undefined> = {
    ...(caps && {
      awardMaxArrearsMonths: caps.maxArrearsMonths,
      awardMaxAheadMonths: caps.maxAheadMonths,
      awardMaxMonthlyRent: caps.maxMonthlyRent ?? undefined,
      awardMaxUtilities: caps.maxUtilities,
      awardMaxTotal: caps.maxTotal,
    }),
    duplicateFields: def.duplicateFields.join(',') || undefined,
    requiredDocumentsField: def.requiredDocumentsField ?? undefined,
    requireIncome: def.pendingColumns.requireIncome.join(',') || undefined,
    section8: def.pendingColumns.section8 ?? undefined,
    thirdParty: def.pendingColumns.thirdParty ?? undefined,
  };
  return moddle.create('casebook:Protocol', Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)));
}
