/**
 * The builder's working copy of a form: the field tree with an id per node
 * (names change while being typed, and may even clash), turned back into a
 * definition for saving and for the preview. Order in the tree is the order
 * the user sees; orderList is written only when the existing values would
 * show the fields in another order.
 */
import { resolveNested } from '../../../../../core/messages.js';
import { type DefinitionProblem, type FieldDef, type FieldType, type FormDefinition, FormDefinitionError, orderedFields, parseFormDefinition } from '../../../../../core/forms/definition.js';

export interface FieldNode {
  id: string;
  field: Omit<FieldDef, 'children'>;
  /** Present for containers (repeat, stepper, step). */
  children?: FieldNode[];
}

export interface BuilderState {
  settings: Omit<FormDefinition, 'fields'>;
  code: string;
  nodes: FieldNode[];
}

let counter = 0;
export const newNodeId = () => `n${++counter}`;

const CONTAINERS = new Set<FieldType>(['repeat', 'stepper', 'step']);

export function toNodes(fields: FieldDef[]): FieldNode[] {
  return orderedFields(fields).map(({ children, ...field }) => ({
    id: newNodeId(),
    field,
    ...(CONTAINERS.has(field.type) || children ? { children: toNodes(children ?? []) } : {}),
  }));
}

/** Whether the fields already show in this order through their orderList (default 100). */
function inOrder(nodes: FieldNode[]): boolean {
  return nodes.every((node, i) => i === 0 || (nodes[i - 1]?.field.orderList ?? 100) <= (node.field.orderList ?? 100));
}

export function toFields(nodes: FieldNode[]): FieldDef[] {
  const keep = inOrder(nodes);
  return nodes.map((node, i) => {
    const field: FieldDef = { ...node.field };
    if (!keep) field.orderList = (i + 1) * 10;
    if (node.children) field.children = toFields(node.children);
    return field;
  });
}

export function toDefinition(state: BuilderState): FormDefinition {
  return { ...state.settings, fields: toFields(state.nodes) };
}

export function emptyState(): BuilderState {
  return { settings: { name: '', description: '', layout: 'columns', languages: ['en', 'es'] }, code: '', nodes: [] };
}

export function fromDefinition(code: string, definition: FormDefinition): BuilderState {
  const { fields, ...settings } = definition;
  return {
    code,
    settings: { name: settings.name ?? '', description: settings.description ?? '', layout: settings.layout ?? 'columns', languages: settings.languages ?? ['en', 'es'] },
    nodes: toNodes(fields ?? []),
  };
}

// --- tree queries and edits (all pure: they return new arrays) ---

export function findNode(nodes: FieldNode[], id: string): FieldNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const inner = node.children && findNode(node.children, id);
    if (inner) return inner;
  }
  return undefined;
}

/** The parent of a node (null at the top), or undefined when the id is not in the tree. */
export function parentOf(nodes: FieldNode[], id: string, parent: FieldNode | null = null): FieldNode | null | undefined {
  for (const node of nodes) {
    if (node.id === id) return parent;
    if (node.children) {
      const found = parentOf(node.children, id, node);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export function siblingsOf(nodes: FieldNode[], id: string): FieldNode[] {
  const parent = parentOf(nodes, id);
  return parent ? (parent.children ?? []) : nodes;
}

/** Applies `change` to the list holding `parentId`'s children (null: the top list). */
function editList(nodes: FieldNode[], parentId: string | null, change: (list: FieldNode[]) => FieldNode[]): FieldNode[] {
  if (parentId === null) return change(nodes);
  return nodes.map((node) => {
    if (node.id === parentId) return { ...node, children: change(node.children ?? []) };
    if (node.children) return { ...node, children: editList(node.children, parentId, change) };
    return node;
  });
}

export function updateField(nodes: FieldNode[], id: string, patch: Partial<FieldNode['field']>): FieldNode[] {
  return nodes.map((node) => {
    if (node.id === id) {
      const field = { ...node.field, ...patch };
      for (const [key, value] of Object.entries(patch)) if (value === undefined) delete (field as Record<string, unknown>)[key];
      return { ...node, field };
    }
    if (node.children) return { ...node, children: updateField(node.children, id, patch) };
    return node;
  });
}

export function insertNode(nodes: FieldNode[], parentId: string | null, node: FieldNode): FieldNode[] {
  return editList(nodes, parentId, (list) => [...list, node]);
}

export function removeNode(nodes: FieldNode[], id: string): FieldNode[] {
  return nodes
    .filter((node) => node.id !== id)
    .map((node) => (node.children ? { ...node, children: removeNode(node.children, id) } : node));
}

/** Moves a node to `to` among its siblings. */
export function moveNode(nodes: FieldNode[], id: string, to: number): FieldNode[] {
  const parent = parentOf(nodes, id);
  if (parent === undefined) return nodes;
  return editList(nodes, parent?.id ?? null, (list) => {
    const from = list.findIndex((n) => n.id === id);
    if (from < 0 || to < 0 || to >= list.length || from === to) return list;
    const next = [...list];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved as FieldNode);
    return next;
  });
}

export function countDescendants(node: FieldNode): number {
  return (node.children ?? []).reduce((sum, child) => sum + 1 + countDescendants(child), 0);
}

/** Every name in the scope a new child of `parentId` would join (steppers and steps share their parent's). */
export function namesInScope(nodes: FieldNode[], parentId: string | null): Set<string> {
  let scopeRoot: FieldNode[] = nodes;
  let id = parentId;
  while (id !== null) {
    const node = findNode(nodes, id);
    if (!node) break;
    if (node.field.type === 'repeat') {
      scopeRoot = node.children ?? [];
      break;
    }
    id = parentOf(nodes, id)?.id ?? null;
  }
  const names = new Set<string>();
  const walk = (list: FieldNode[]) => {
    for (const node of list) {
      names.add(node.field.name);
      if (node.children && node.field.type !== 'repeat') walk(node.children);
    }
  };
  walk(scopeRoot);
  return names;
}

/** A name not used in the scope: text_1, text_2... */
export function freeName(type: FieldType, taken: Set<string>): string {
  for (let n = 1; ; n++) {
    const name = `${type}_${n}`;
    if (!taken.has(name)) return name;
  }
}

/** Whether a node sits (at any depth) inside a repeat group: its column properties apply. */
export function insideRepeat(nodes: FieldNode[], id: string): boolean {
  let parent = parentOf(nodes, id);
  while (parent) {
    if (parent.field.type === 'repeat') return true;
    parent = parentOf(nodes, parent.id);
  }
  return false;
}

// --- problems: the paths of core/forms and of the server's 422, placed on nodes ---

export interface PlacedProblems {
  /** Messages per node id. */
  byNode: Map<string, string[]>;
  /** Messages about the settings (name, layout...) or the whole form. */
  form: Array<{ path: string; message: string }>;
}

/**
 * Places problems by their path: `fields.household.children.age` names
 * fields by name, `fields.3.children.1.type` by position in the definition
 * as sent (the tree's order). A name used twice points at its last use (the
 * one reported as a duplicate).
 */
export function placeProblems(nodes: FieldNode[], problems: ReadonlyArray<{ path: string; message: string }>): PlacedProblems {
  const byNode = new Map<string, string[]>();
  const form: PlacedProblems['form'] = [];
  for (const problem of problems) {
    const node = nodeAtPath(nodes, problem.path);
    if (node) byNode.set(node.id, [...(byNode.get(node.id) ?? []), problem.message]);
    else form.push(problem);
  }
  return { byNode, form };
}

function nodeAtPath(nodes: FieldNode[], path: string): FieldNode | undefined {
  const parts = path.split('.');
  if (parts[0] !== 'fields' || parts.length < 2) return undefined;
  let list = nodes;
  let found: FieldNode | undefined;
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === 'children') {
      list = found?.children ?? [];
      continue;
    }
    const next = /^\d+$/.test(part) ? list[Number(part)] : list.findLast((n) => n.field.name === part);
    if (!next) return found;
    found = next;
    // A property name after a field (fields.3.type) ends the walk at that field.
    if (parts[i + 1] !== undefined && parts[i + 1] !== 'children') return found;
  }
  return found;
}

/** The problems core/forms finds in the definition, each with its path and translated reason. */
export function checkDefinition(definition: FormDefinition, translate: (key: string, params?: Record<string, unknown>) => string): Array<{ path: string; message: string }> {
  try {
    parseFormDefinition(definition);
    return [];
  } catch (error) {
    if (!(error instanceof FormDefinitionError)) throw error;
    return error.problems.map((p: DefinitionProblem) => ({ path: p.path, message: translate(p.reason, resolveNested(p.params, translate)) }));
  }
}
