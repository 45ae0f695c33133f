/**
 * A BPMN 2.0 file (Camunda Modeler, Flowable, bpmn.io, or our own export) as
 * a protocol's tasks. Pure: forms, teams and users stay named (form code,
 * team name, user email) for commands.ts to look up in the tenant.
 *
 * Reading refuses, before any parsing, a file past BPMN_MAX_BYTES, one that
 * declares a DOCTYPE or an ENTITY anywhere (no DTD is ever read, so no
 * external entity either), one that is not UTF-8 (or UTF-16 with its mark);
 * then what bpmn-moddle cannot read as `bpmn:definitions`.
 *
 * The conversion (one process with flow nodes):
 * - user tasks (and plain and manual tasks) are the protocol's tasks; their
 *   `casebook:task` extension, or Camunda's and Flowable's candidate group
 *   and assignee, say who does them (the person who opened the case
 *   otherwise, as a new task of the editor);
 * - from each task (and from the start events) the sequence flows are
 *   followed through gateways to the next tasks: conditions met on the way
 *   become the accept edge's condition (joined with &&), a default flow the
 *   negation of its siblings' conditions; a parallel or inclusive gateway that
 *   joins several flows makes the task after it wait for all its
 *   predecessors (`join: 'all'`);
 * - conditions must be in Casebook's condition syntax (core/forms/expr.ts;
 *   `${...}` and a leading `=` are taken off), checked here and evaluated by
 *   the engine's interpreter, never run as code;
 * - what the engine cannot run is listed in `unsupported` (element id and
 *   type): timer, message, signal and other event definitions, boundary
 *   events, service, script, send, receive and business-rule tasks, call
 *   activities, subprocesses, loops, a path that ends the process on a
 *   condition while others go on. Dropped, an event or activity in the flow
 *   is passed straight through, a boundary event goes with the path that
 *   leaves it, a loop runs once;
 * - what cannot be dropped without guessing (event-based and complex
 *   gateways, a choice at the start, a condition in another language, loops
 *   of gateways without a task) is a problem.
 */
import { checkCondition } from '../../../core/forms/expr.js';
import { BPMN_MAX_BYTES } from '../../../core/api/protocolBpmn.js';
import { ADHOC_TASK_CODE } from '../../../core/workflow/adhoc.js';
import { PARTY_ROLES, type PartyRole } from '../../../core/parties.js';
import { EXPIRATION_UNITS, type ExpirationUnit } from '../../../core/workflow/protocol.js';
import { CONDITION_LANGUAGE, type Element, extensionOf, list, newModdle, num, ref, str } from './bpmn-casebook.js';

// ---------------------------------------------------------------- reading the file

export type BpmnFileProblem = 'tooLarge' | 'doctype' | 'encoding' | 'notXml' | 'notBpmn';

/** A file refused as a whole; `reason` is a key under `bpmn.file` of server/messages. */
export class BpmnFileError extends Error {
  constructor(
    readonly reason: BpmnFileProblem,
    readonly params: Record<string, unknown> = {},
  ) {
    super(`BPMN file refused: ${reason}`);
    this.name = 'BpmnFileError';
  }
}

/** The bytes of an upload, read until the size cap: past it, reading stops and the file is refused. */
export async function readUpload(body: AsyncIterable<Uint8Array | string>): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += bytes.byteLength;
    if (size > BPMN_MAX_BYTES) throw new BpmnFileError('tooLarge', { max: BPMN_MAX_BYTES / (1024 * 1024) });
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}

/** The text of the file, from its bytes: UTF-8 (a byte-order mark allowed), or UTF-16 with its mark. */
function decode(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2));
  return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
}

/** A DTD: internal or external, it may declare entities (XXE, "billion laughs"). Refused wherever it appears. */
const DTD = /<!\s*(DOCTYPE|ENTITY)/i;

/** Reads a BPMN file into bpmn-moddle's `bpmn:Definitions`, or throws BpmnFileError. */
export async function readBpmnFile(bytes: Uint8Array): Promise<Element> {
  if (bytes.byteLength > BPMN_MAX_BYTES) throw new BpmnFileError('tooLarge', { max: BPMN_MAX_BYTES / (1024 * 1024) });
  let text: string;
  try {
    text = decode(bytes);
  } catch {
    throw new BpmnFileError('encoding');
  }
  if (DTD.test(text)) throw new BpmnFileError('doctype');
  if (text.includes('\u0000') || !text.trimStart().startsWith('<')) throw new BpmnFileError('notXml', { where: '1:1' });
  try {
    const { rootElement } = await newModdle().fromXML(text, 'bpmn:Definitions');
    if (rootElement?.$type !== 'bpmn:Definitions') throw new BpmnFileError('notBpmn');
    return rootElement;
  } catch (e) {
    if (e instanceof BpmnFileError) throw e;
    const message = e instanceof Error ? e.message : '';
    if (/failed to parse document as/.test(message)) throw new BpmnFileError('notBpmn');
    // saxen counts lines and columns from 0.
    const line = /line: (\d+)/.exec(message)?.[1];
    const column = /column: (\d+)/.exec(message)?.[1];
    throw new BpmnFileError('notXml', { where: line !== undefined ? `${Number(line) + 1}:${Number(column ?? 0) + 1}` : '?' });
  }
}

// ---------------------------------------------------------------- the conversion's result

/** Who does a task, by name: resolved to ids in the tenant by commands.ts. */
export type NamedResponsible = { kind: 'team'; team: string } | { kind: 'user'; email: string } | { kind: 'owner' } | { kind: 'task'; task: string };

export interface NamedTask {
  /** The BPMN element the task came from, to name it in messages. */
  elementId: string;
  code: string;
  name: string;
  name_en?: string;
  /** A form code; null: no form. */
  form: string | null;
  responsible: NamedResponsible;
  expirationDays: number | null;
  expirationUnit?: ExpirationUnit;
  escalation?: { role: string; afterDays: number };
  award?: boolean;
  waitsForParty?: PartyRole;
  join: 'any' | 'all';
  onAccept: Array<{ to: string; when?: string }>;
  onReject: { to: string } | { notEligible: true } | null;
}

/** Something about an element: `reason` is a key of server/messages (`bpmn.*`). */
export interface BpmnNote {
  id: string;
  /** The element's BPMN type as the file writes it (`bpmn:timerEventDefinition`). */
  type: string;
  reason: string;
  params?: Record<string, unknown>;
}

export interface ProtocolSettings {
  duplicateFields: string[];
  requiredDocumentsField: string | null;
  pendingColumns: { requireIncome: string[]; section8: string | null; thirdParty: string | null };
  /** Issue 23 (cents); null: no award. */
  awardCaps: { maxArrearsMonths?: number; maxAheadMonths?: number; maxMonthlyRent: number | null; maxUtilities?: number; maxTotal: number } | null;
}

export interface BpmnConversion {
  start: string[];
  tasks: NamedTask[];
  /** The `casebook:protocol` extension of the process, when the file has one. */
  settings?: ProtocolSettings;
  /** What the engine cannot run: the import stops unless they are dropped. */
  unsupported: BpmnNote[];
  /** What stops the import in any case. */
  problems: BpmnNote[];
}

// ---------------------------------------------------------------- the conversion

type Kind = 'task' | 'start' | 'end' | 'xor' | 'and' | 'or' | 'pass' | 'boundary' | 'blocked' | 'removed';

interface Node {
  id: string;
  kind: Kind;
  element: Element;
}

interface Flow {
  id: string;
  from: string;
  to: string;
  element: Element;
}

/** `bpmn:TimerEventDefinition` as the file writes it: `bpmn:timerEventDefinition`. */
const tag = (type: string) => type.replace(/:(\w)/, (_, c: string) => `:${c.toLowerCase()}`);

const TASKS = new Set(['bpmn:UserTask', 'bpmn:Task', 'bpmn:ManualTask']);
const ACTIVITIES = new Set(['bpmn:ServiceTask', 'bpmn:ScriptTask', 'bpmn:SendTask', 'bpmn:ReceiveTask', 'bpmn:BusinessRuleTask', 'bpmn:CallActivity']);
const SUBPROCESSES = new Set(['bpmn:SubProcess', 'bpmn:Transaction', 'bpmn:AdHocSubProcess']);
/** Data, not flow: nothing to run or drop. */
const DATA = new Set(['bpmn:DataObject', 'bpmn:DataObjectReference', 'bpmn:DataStoreReference']);

/** Camunda 7, Flowable and Activiti keep a task's candidate group and assignee in attributes of their namespace. */
const VENDOR_NAMESPACES = ['http://camunda.org/schema/1.0/bpmn', 'http://flowable.org/bpmn', 'http://activiti.org/bpmn'];

const CODE = /^[a-z][a-z0-9_-]{0,62}$/;
/** Past this many ways out of one task through gateways, the file is refused rather than walked further. */
const MAX_PATHS = 500;
/** Steps of all the walks through gateways together: a file of chained gateways is refused, not walked for ever. */
const MAX_STEPS = 200_000;
const MAX_CONDITION = 2000;

export function convertBpmn(definitions: Element): BpmnConversion {
  const unsupported: BpmnNote[] = [];
  const problems: BpmnNote[] = [];
  const problem = (id: string, type: string, reason: string, params: Record<string, unknown> = {}) => {
    if (!problems.some((p) => p.id === id && p.reason === reason)) problems.push({ id, type: tag(type), reason, params: { id, ...params } });
  };
  const drop = (id: string, type: string, reason: string, params: Record<string, unknown> = {}) => {
    if (!unsupported.some((u) => u.id === id && u.reason === reason)) unsupported.push({ id, type: tag(type), reason, params: { id, type: tag(type), ...params } });
  };
  const empty: BpmnConversion = { start: [], tasks: [], unsupported, problems };

  const processes = list(definitions, 'rootElements').filter((e) => e.$type === 'bpmn:Process');
  const withNodes = processes.filter((p) => list(p, 'flowElements').some((e) => e.$type !== 'bpmn:SequenceFlow'));
  if (withNodes.length === 0) {
    problem('definitions', 'bpmn:definitions', 'bpmn.noProcess');
    return empty;
  }
  if (withNodes.length > 1) {
    problem('definitions', 'bpmn:definitions', 'bpmn.manyProcesses', { ids: withNodes.map((p) => str(p, 'id') ?? '?').join(', ') });
    return empty;
  }
  const process = withNodes[0];

  // The flow nodes, each with what the engine makes of it.
  const nodes = new Map<string, Node>();
  const flows: Flow[] = [];
  for (const e of list(process, 'flowElements')) {
    const id = str(e, 'id') ?? '';
    if (e.$type === 'bpmn:SequenceFlow') {
      const from = str(ref(e, 'sourceRef'), 'id');
      const to = str(ref(e, 'targetRef'), 'id');
      if (from && to) flows.push({ id, from, to, element: e });
      else problem(id, e.$type, 'bpmn.danglingFlow');
      continue;
    }
    if (DATA.has(e.$type)) continue;
    const definitionsOf = list(e, 'eventDefinitions');
    const eventType = definitionsOf[0]?.$type ?? e.$type;
    let kind: Kind;
    if (TASKS.has(e.$type)) {
      kind = 'task';
      const loop = ref(e, 'loopCharacteristics');
      if (loop) drop(id, loop.$type, 'bpmn.unsupported.loop');
    } else if (e.$type === 'bpmn:StartEvent') {
      kind = 'start';
      if (definitionsOf.length) drop(id, eventType, 'bpmn.unsupported.startEvent');
    } else if (e.$type === 'bpmn:EndEvent') {
      kind = 'end';
      if (definitionsOf.length) drop(id, eventType, 'bpmn.unsupported.endEvent');
    } else if (e.$type === 'bpmn:IntermediateCatchEvent' || e.$type === 'bpmn:IntermediateThrowEvent') {
      // A "none" intermediate event marks a point in the flow: nothing to run.
      kind = 'pass';
      if (definitionsOf.length) drop(id, eventType, 'bpmn.unsupported.intermediateEvent');
    } else if (e.$type === 'bpmn:BoundaryEvent') {
      kind = 'boundary';
      drop(id, eventType, 'bpmn.unsupported.boundaryEvent');
    } else if (ACTIVITIES.has(e.$type)) {
      kind = 'pass';
      drop(id, e.$type, 'bpmn.unsupported.activity');
    } else if (SUBPROCESSES.has(e.$type)) {
      // An event subprocess has no way in: dropping it removes it.
      kind = e.triggeredByEvent === true ? 'removed' : 'pass';
      drop(id, e.$type, 'bpmn.unsupported.subProcess');
    } else if (e.$type === 'bpmn:ExclusiveGateway') kind = 'xor';
    else if (e.$type === 'bpmn:ParallelGateway') kind = 'and';
    else if (e.$type === 'bpmn:InclusiveGateway') kind = 'or';
    else if (e.$type === 'bpmn:EventBasedGateway' || e.$type === 'bpmn:ComplexGateway') {
      kind = 'blocked';
      problem(id, e.$type, 'bpmn.gatewayUnsupported', { type: tag(e.$type) });
    } else {
      kind = 'pass';
      drop(id, e.$type, 'bpmn.unsupported.other');
    }
    if (!id) problem('?', e.$type, 'bpmn.noId');
    else nodes.set(id, { id, kind, element: e });
  }
  const outgoing = new Map<string, Flow[]>([...nodes.keys()].map((id) => [id, []]));
  const incoming = new Map<string, Flow[]>([...nodes.keys()].map((id) => [id, []]));
  for (const f of flows) {
    if (!nodes.has(f.from) || !nodes.has(f.to)) {
      problem(f.id, 'bpmn:SequenceFlow', 'bpmn.danglingFlow');
      continue;
    }
    outgoing.get(f.from)?.push(f);
    incoming.get(f.to)?.push(f);
  }

  // Conditions, in Casebook's syntax, per flow.
  const conditions = new Map<string, string>();
  for (const f of flows) {
    const expression = ref(f.element, 'conditionExpression');
    if (!expression) continue;
    const language = str(expression, 'language');
    if (language && language !== CONDITION_LANGUAGE && !/(^|\W)(juel|el|feel|expression)(\W|$)/i.test(language)) {
      problem(f.id, 'bpmn:SequenceFlow', 'bpmn.conditionLanguage', { language });
      continue;
    }
    let text = (str(expression, 'body') ?? '').trim();
    const wrapped = /^[$#]\{([\s\S]*)\}$/.exec(text);
    if (wrapped) text = wrapped[1].trim();
    else if (text.startsWith('=')) text = text.slice(1).trim();
    if (text === '') continue;
    const error = checkCondition(text);
    if (error) problem(f.id, 'bpmn:SequenceFlow', 'bpmn.badCondition', { message: { key: error.key, params: error.params }, position: error.position + 1 });
    else conditions.set(f.id, text);
  }
  const negation = (others: string[]) => others.map((c) => `!(${c})`).join(' && ');
  /** The condition a flow adds when it is taken: its own, or for the default flow (or an exclusive gateway's one plain flow) the negation of its siblings'. */
  const conditionOf = (f: Flow): string | undefined => {
    const own = conditions.get(f.id);
    if (own !== undefined) return own;
    const source = nodes.get(f.from) as Node;
    const siblings = (outgoing.get(f.from) ?? []).filter((x) => x !== f);
    const guarded = siblings.map((x) => conditions.get(x.id)).filter((c): c is string => c !== undefined);
    const isDefault = str(ref(source.element, 'default'), 'id') === f.id;
    const onlyPlainOfChoice = source.kind === 'xor' && siblings.every((x) => conditions.has(x.id));
    return (isDefault || onlyPlainOfChoice) && guarded.length ? negation(guarded) : undefined;
  };
  for (const n of nodes.values()) {
    if (n.kind !== 'xor') continue;
    const defaultId = str(ref(n.element, 'default'), 'id');
    const plain = (outgoing.get(n.id) ?? []).filter((f) => !conditions.has(f.id) && f.id !== defaultId && !problems.some((p) => p.id === f.id));
    if (plain.length > 1) problem(n.id, n.element.$type, 'bpmn.choiceWithoutConditions', { flows: plain.map((f) => f.id).join(', ') });
  }

  // Where a flow leads: the tasks (or ends) reached through gateways and dropped elements, with the conditions met on the way.
  interface Reach {
    to: string;
    end: boolean;
    conditions: string[];
    joined: boolean;
    /** The flow into the task or end. */
    last: string;
    /** The first flow on the way that set a condition. */
    guardedBy?: string;
  }
  let tooComplex = false;
  let steps = 0;
  const walk = (f: Flow, seen: Set<string>, conds: string[], joined: boolean, into: Reach[], guarded?: string) => {
    if (tooComplex) return;
    if (into.length >= MAX_PATHS || ++steps > MAX_STEPS) {
      tooComplex = true;
      return;
    }
    const c = conditionOf(f);
    const met = c === undefined ? conds : [...conds, c];
    const guardedBy = guarded ?? (c === undefined ? undefined : f.id);
    const target = nodes.get(f.to) as Node;
    switch (target.kind) {
      case 'task':
        into.push({ to: target.id, end: false, conditions: met, joined, last: f.id, guardedBy });
        return;
      case 'end':
        into.push({ to: target.id, end: true, conditions: met, joined, last: f.id, guardedBy });
        return;
      case 'blocked':
      case 'removed':
      case 'boundary':
        return;
      case 'start':
        problem(f.id, 'bpmn:SequenceFlow', 'bpmn.intoStart');
        return;
      default: {
        if (seen.has(target.id)) {
          problem(target.id, target.element.$type, 'bpmn.loopWithoutTask');
          return;
        }
        const next = outgoing.get(target.id) ?? [];
        // A dropped element at the end of the flow ends it.
        if (next.length === 0) {
          into.push({ to: target.id, end: true, conditions: met, joined, last: f.id, guardedBy });
          return;
        }
        // A gateway that joins flows, or a parallel one with a single way on (how the export marks `join: 'all'`).
        const joins = (target.kind === 'and' || target.kind === 'or') && ((incoming.get(target.id)?.length ?? 0) > 1 || next.length === 1);
        const path = new Set(seen).add(target.id);
        for (const o of next) walk(o, path, met, joined || joins, into, guardedBy);
      }
    }
  };
  const reachFrom = (id: string): Reach[] => {
    const into: Reach[] = [];
    for (const f of outgoing.get(id) ?? []) walk(f, new Set([id]), [], false, into);
    return into;
  };
  const all = (conds: string[]) => (conds.length === 1 ? conds[0] : conds.map((c) => `(${c})`).join(' && '));

  // Task codes: the element id when it is one, else made from it.
  const taskNodes = [...nodes.values()].filter((n) => n.kind === 'task');
  const codes = new Map<string, string>();
  const taken = new Set<string>();
  for (const n of taskNodes) if (CODE.test(n.id) && n.id !== ADHOC_TASK_CODE) taken.add(n.id);
  for (const n of taskNodes) {
    if (CODE.test(n.id) && n.id !== ADHOC_TASK_CODE) {
      codes.set(n.id, n.id);
      continue;
    }
    let base = n.id.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^[^a-z]+/, '');
    if (!base || base === ADHOC_TASK_CODE) base = `task_${base}`.replace(/_+$/, '') || 'task';
    base = base.slice(0, 56);
    let code = base;
    for (let i = 2; taken.has(code); i++) code = `${base}-${i}`;
    taken.add(code);
    codes.set(n.id, code);
  }
  /** A code named in a `casebook:task` (rejectTo, task): a task's code, or the id of its element. */
  const allCodes = new Set(codes.values());
  const codeNamed = (name: string | undefined) => {
    if (!name) return undefined;
    if (allCodes.has(name)) return name;
    return codes.get(name);
  };

  // The start: what the start events lead to, without conditions.
  const start: string[] = [];
  const starts = [...nodes.values()].filter((n) => n.kind === 'start');
  if (starts.length === 0) problem(str(process, 'id') ?? 'process', 'bpmn:process', 'bpmn.noStart');
  for (const s of starts) {
    for (const r of reachFrom(s.id)) {
      if (r.end) continue;
      if (r.conditions.length) problem(r.guardedBy ?? r.last, 'bpmn:SequenceFlow', 'bpmn.conditionAtStart');
      const code = codes.get(r.to) as string;
      if (!start.includes(code)) start.push(code);
    }
  }

  // Accept edges.
  const joinAll = new Set<string>();
  const onAccept = new Map<string, Array<{ to: string; when?: string }>>();
  for (const n of taskNodes) {
    const reached = reachFrom(n.id);
    const byTarget = new Map<string, string[][]>();
    for (const r of reached) {
      if (r.end) continue;
      if (r.joined) joinAll.add(r.to);
      byTarget.set(r.to, [...(byTarget.get(r.to) ?? []), r.conditions]);
    }
    // Ending on a condition while other paths lead on: the engine cannot end there (it flags the case for a person instead).
    if (byTarget.size) for (const r of reached) if (r.end && r.conditions.length) drop(r.last, 'bpmn:SequenceFlow', 'bpmn.unsupported.conditionalEnd', { task: n.id });
    const edges: Array<{ to: string; when?: string }> = [];
    for (const [to, paths] of byTarget) {
      const code = codes.get(to) as string;
      if (paths.some((p) => p.length === 0)) edges.push({ to: code });
      else {
        const when = paths.length === 1 ? all(paths[0]) : paths.map((p) => `(${all(p)})`).join(' || ');
        if (when.length > MAX_CONDITION) problem(n.id, n.element.$type, 'bpmn.conditionTooLong', { max: MAX_CONDITION });
        edges.push({ to: code, when });
      }
    }
    onAccept.set(n.id, edges);
  }
  if (tooComplex) problem(str(process, 'id') ?? 'process', 'bpmn:process', 'bpmn.tooComplex', { max: MAX_PATHS });

  // Tasks that only a dropped boundary event's path reaches go with it.
  const elementOf = new Map([...codes].map(([id, code]) => [code, id]));
  const reachable = new Set<string>();
  const visit = (id: string) => {
    if (reachable.has(id)) return;
    reachable.add(id);
    for (const e of onAccept.get(id) ?? []) visit(elementOf.get(e.to) as string);
  };
  for (const code of start) visit(elementOf.get(code) as string);
  const viaBoundary = new Set<string>();
  const boundaryVisit = (id: string) => {
    if (reachable.has(id) || viaBoundary.has(id)) return;
    viaBoundary.add(id);
    for (const e of onAccept.get(id) ?? []) boundaryVisit(elementOf.get(e.to) as string);
  };
  for (const b of [...nodes.values()].filter((x) => x.kind === 'boundary')) for (const r of reachFrom(b.id)) if (!r.end) boundaryVisit(r.to);
  for (const id of viaBoundary) drop(id, (nodes.get(id) as Node).element.$type, 'bpmn.unsupported.onlyThroughDropped');

  const vendor = vendorAttributes(definitions);
  const tasks: NamedTask[] = [];
  for (const n of taskNodes) {
    if (viaBoundary.has(n.id)) continue;
    const code = codes.get(n.id) as string;
    const ext = extensionOf(n.element, 'casebook:Task');
    const name = (str(n.element, 'name') ?? '').trim().slice(0, 200) || n.id.slice(0, 200);
    const task: NamedTask = {
      elementId: n.id,
      code,
      name,
      form: null,
      responsible: { kind: 'owner' },
      expirationDays: null,
      join: joinAll.has(n.id) ? 'all' : 'any',
      onAccept: (onAccept.get(n.id) ?? []).filter((e) => !viaBoundary.has(elementOf.get(e.to) as string)),
      onReject: null,
    };
    if (ext) {
      const nameEn = str(ext, 'nameEn')?.trim();
      if (nameEn) task.name_en = nameEn.slice(0, 200);
      task.form = str(ext, 'form')?.trim() || null;
      const kind = str(ext, 'responsible');
      if (kind === 'team') task.responsible = { kind: 'team', team: str(ext, 'team') ?? '' };
      else if (kind === 'user') task.responsible = { kind: 'user', email: str(ext, 'user') ?? '' };
      else if (kind === 'task') {
        const earlier = codeNamed(str(ext, 'task'));
        if (earlier) task.responsible = { kind: 'task', task: earlier };
        else problem(n.id, n.element.$type, 'bpmn.unknownTask', { code: str(ext, 'task') ?? '' });
      } else if (kind !== undefined && kind !== 'owner') problem(n.id, n.element.$type, 'bpmn.unknownResponsible', { value: kind });
      const days = num(ext, 'expirationDays');
      if (days !== undefined) task.expirationDays = days;
      const unit = str(ext, 'expirationUnit');
      if (unit !== undefined) {
        if ((EXPIRATION_UNITS as readonly string[]).includes(unit)) task.expirationUnit = unit as ExpirationUnit;
        else problem(n.id, n.element.$type, 'bpmn.badValue', { attribute: 'expirationUnit', value: unit });
      }
      const rejectTo = str(ext, 'rejectTo');
      if (rejectTo !== undefined) {
        const to = codeNamed(rejectTo);
        if (to) task.onReject = { to };
        else problem(n.id, n.element.$type, 'bpmn.unknownTask', { code: rejectTo });
      } else if (ext.rejectEnds === true) task.onReject = { notEligible: true };
      const role = str(ext, 'escalationRole');
      if (role) task.escalation = { role, afterDays: num(ext, 'escalationAfterDays') ?? 1 };
      if (ext.award === true) task.award = true;
      const waits = str(ext, 'waitsForParty');
      if (waits !== undefined) {
        if ((PARTY_ROLES as readonly string[]).includes(waits)) task.waitsForParty = waits as PartyRole;
        else problem(n.id, n.element.$type, 'bpmn.badValue', { attribute: 'waitsForParty', value: waits });
      }
    } else {
      const group = vendor(n.element, 'candidateGroups')?.split(',')[0]?.trim();
      const assignee = vendor(n.element, 'assignee')?.trim();
      if (group && !/^[$#]\{/.test(group)) task.responsible = { kind: 'team', team: group };
      else if (assignee && /^[^\s@]+@[^\s@]+$/.test(assignee)) task.responsible = { kind: 'user', email: assignee };
    }
    tasks.push(task);
  }

  const settingsExt = extensionOf(process, 'casebook:Protocol');
  const names = (key: string) =>
    (str(settingsExt, key) ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const settings = settingsExt && {
    duplicateFields: names('duplicateFields'),
    requiredDocumentsField: str(settingsExt, 'requiredDocumentsField') || null,
    pendingColumns: { requireIncome: names('requireIncome'), section8: str(settingsExt, 'section8') || null, thirdParty: str(settingsExt, 'thirdParty') || null },
    awardCaps: awardCapsOf(settingsExt),
  };
  return { start, tasks, settings, unsupported, problems };
}

/** The award caps a Casebook file's protocol extension carries (the definition's check bounds them), or null. */
function awardCapsOf(ext: Element): ProtocolSettings['awardCaps'] {
  const maxTotal = num(ext, 'awardMaxTotal');
  if (maxTotal === undefined) return null;
  const optional = (key: string) => num(ext, key) ?? undefined;
  return {
    maxTotal,
    maxMonthlyRent: num(ext, 'awardMaxMonthlyRent') ?? null,
    ...(optional('awardMaxArrearsMonths') !== undefined && { maxArrearsMonths: optional('awardMaxArrearsMonths') }),
    ...(optional('awardMaxAheadMonths') !== undefined && { maxAheadMonths: optional('awardMaxAheadMonths') }),
    ...(optional('awardMaxUtilities') !== undefined && { maxUtilities: optional('awardMaxUtilities') }),
  };
}

/** An attribute of an element in the Camunda, Flowable or Activiti namespace, whatever prefix the file gave it. */
function vendorAttributes(definitions: Element) {
  const prefixes = Object.entries(definitions.$attrs ?? {})
    .filter(([k, v]) => k.startsWith('xmlns:') && VENDOR_NAMESPACES.includes(v))
    .map(([k]) => k.slice('xmlns:'.length));
  return (e: Element, name: string): string | undefined => {
    for (const p of prefixes) {
      const v = e.$attrs?.[`${p}:${name}`];
      if (typeof v === 'string' && v.trim()) return v;
    }
    return undefined;
  };
}
