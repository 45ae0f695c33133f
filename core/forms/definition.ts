/**
 * Form definitions: settings and a tree of fields (spec section 3: name,
 * type, label, label_en, label_report, headers, format, type_aux, orderList,
 * showWhenTable, plus validation and options). `parseFormDefinition` checks
 * the structure and every condition, and answers each problem with the
 * field's path and a reason, so a bad form is refused when it is saved.
 */
import { z } from 'zod';
import { PARTY_ROLES, type PartyRole } from '../parties.js';
import { checkCondition } from './expr.js';

export const FIELD_TYPES = [
  'text', 'textarea', 'number', 'currency', 'email', 'phone', 'zip', 'date', 'datetime',
  'select', 'select_multiple', 'radio', 'checkbox', 'switch', 'master_select', 'select_multiple_external',
  'file', 'repeat', 'stepper', 'step', 'static',
  // Issue 23: another party of the case (a landlord, a utility ...): { role, name, email, phone }.
  'party',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types whose value is one of `options`. */
export const CHOICE_TYPES = new Set<FieldType>(['select', 'radio', 'master_select']);
export const MULTI_CHOICE_TYPES = new Set<FieldType>(['select_multiple', 'select_multiple_external']);
/** Types that hold other fields. A stepper's children are its steps; a step's children are fields. */
export const CONTAINER_TYPES = new Set<FieldType>(['repeat', 'stepper', 'step']);
/** Types that hold no value of their own (a stepper's and a step's fields sit beside the others). */
export const VALUELESS_TYPES = new Set<FieldType>(['static', 'stepper', 'step']);

const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
const MAX_FIELDS = 500;
const MAX_DEPTH = 3;

const option = z.object({
  value: z.union([z.string().max(200), z.number()]),
  label: z.string().max(300),
  label_en: z.string().max(300).optional(),
});

export interface FieldDef {
  name: string;
  type: FieldType;
  /** Spanish label (the spec's `label`); `label_en` is the English one. */
  label: string;
  label_en?: string;
  label_report?: string;
  /** In a repeat group's table: false hides this column. */
  headers?: boolean;
  format?: string;
  type_aux?: string;
  orderList?: number;
  /** Condition (safe expression, may use `role`) for showing this column in a repeat group's table. */
  showWhenTable?: string;
  /** Condition for showing (and validating) the field at all. */
  visibleWhen?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  min?: number;
  max?: number;
  /** A regular expression the text must match (checked for safety when saved). */
  pattern?: string;
  help?: string;
  help_en?: string;
  default?: unknown;
  options?: Array<z.infer<typeof option>>;
  /** master_select: the master whose active items are the options. */
  master?: string;
  /** select_multiple_external: where the server fetches the options. */
  external_url?: string;
  /** file: accepted extensions without the dot, and the size cap. */
  accept?: string[];
  maxSizeMb?: number;
  /** party: the role every answer of this field names (absent: the person filling it chooses one of PARTY_ROLES). */
  partyRole?: PartyRole;
  children?: FieldDef[];
  minRows?: number;
  maxRows?: number;
}

const fieldSchema: z.ZodType<FieldDef> = z.lazy(() =>
  z.object({
    name: z.string().regex(FIELD_NAME, 'forms.def.badName'),
    type: z.enum(FIELD_TYPES, { error: 'forms.def.unknownType' }),
    label: z.string().max(300),
    label_en: z.string().max(300).optional(),
    label_report: z.string().max(300).optional(),
    headers: z.boolean().optional(),
    format: z.string().max(60).optional(),
    type_aux: z.string().max(60).optional(),
    orderList: z.number().int().min(0).max(100_000).optional(),
    showWhenTable: z.string().max(2000).optional(),
    visibleWhen: z.string().max(2000).optional(),
    required: z.boolean().optional(),
    minLength: z.number().int().min(0).max(100_000).optional(),
    maxLength: z.number().int().min(1).max(100_000).optional(),
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    pattern: z.string().max(300).optional(),
    help: z.string().max(1000).optional(),
    help_en: z.string().max(1000).optional(),
    default: z.unknown().optional(),
    options: z.array(option).max(1000).optional(),
    master: z.string().max(63).optional(),
    external_url: z.string().max(2000).optional(),
    accept: z.array(z.string().regex(/^[a-z0-9]{1,10}$/)).max(30).optional(),
    maxSizeMb: z.number().positive().max(1024).optional(),
    partyRole: z.enum(PARTY_ROLES).optional(),
    children: z.array(fieldSchema).max(MAX_FIELDS).optional(),
    minRows: z.number().int().min(0).max(10_000).optional(),
    maxRows: z.number().int().min(1).max(10_000).optional(),
  }),
);

export const formDefinitionSchema = z.object({
  name: z.string().trim().min(1, 'validation.required').max(200),
  description: z.string().max(2000).default(''),
  layout: z.enum(['columns', 'stepper']).default('columns'),
  languages: z.array(z.enum(['en', 'es'])).min(1).default(['en', 'es']),
  fields: z.array(fieldSchema).max(MAX_FIELDS),
});
export type FormDefinition = z.infer<typeof formDefinitionSchema>;

export interface DefinitionProblem {
  /** e.g. `fields.household.children.age` or `fields[3]` */
  path: string;
  /** i18n key */
  reason: string;
  params?: Record<string, unknown>;
}

export class FormDefinitionError extends Error {
  constructor(readonly problems: DefinitionProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.reason}`).join('; '));
    this.name = 'FormDefinitionError';
  }
}

/** Parses a definition and checks what a schema cannot: names, nesting, conditions, patterns, bounds. */
export function parseFormDefinition(input: unknown): FormDefinition {
  const parsed = formDefinitionSchema.safeParse(input);
  if (!parsed.success) {
    throw new FormDefinitionError(
      parsed.error.issues.map((i) => ({ path: i.path.join('.') || 'form', reason: i.message.startsWith('forms.') || i.message.startsWith('validation.') ? i.message : 'forms.def.invalid', params: { detail: i.message } })),
    );
  }
  const problems: DefinitionProblem[] = [];
  let count = 0;
  // `seen` is the set of names of one scope: the form, or one repeat group's row.
  // Steppers and steps only group fields visually, so they share their parent's scope.
  const walk = (fields: FieldDef[], prefix: string, depth: number, parent: FieldType | null, insideRepeat: boolean, seen: Set<string>) => {
    for (const f of fields) {
      count++;
      const path = `${prefix}.${f.name}`;
      const problem = (reason: string, params?: Record<string, unknown>) => problems.push({ path, reason, params });
      if (seen.has(f.name)) problem('forms.def.duplicateName', { name: f.name });
      seen.add(f.name);
      for (const key of ['visibleWhen', 'showWhenTable'] as const) {
        const src = f[key];
        if (src === undefined) continue;
        const err = checkCondition(src);
        if (err) problem('forms.def.badCondition', { property: key, message: { key: err.key, params: err.params }, position: err.position + 1 });
      }
      if (f.pattern !== undefined && !isSafePattern(f.pattern)) problem('forms.def.badPattern');
      if (f.minLength !== undefined && f.maxLength !== undefined && f.minLength > f.maxLength) problem('forms.def.badBounds');
      if (f.min !== undefined && f.max !== undefined && f.min > f.max) problem('forms.def.badBounds');
      if (f.minRows !== undefined && f.maxRows !== undefined && f.minRows > f.maxRows) problem('forms.def.badBounds');
      if ((f.type === 'select' || f.type === 'radio' || f.type === 'select_multiple') && !f.options?.length) problem('forms.def.needsOptions');
      if (f.type === 'master_select' && !f.master) problem('forms.def.needsMaster');
      if (f.type === 'select_multiple_external' && !f.external_url) problem('forms.def.needsUrl');
      if (f.type === 'file' && !f.accept?.length) problem('forms.def.needsExtensions');
      if ((f.type === 'step') !== (parent === 'stepper')) problem(f.type === 'step' ? 'forms.def.stepOutsideStepper' : 'forms.def.stepperNeedsSteps');
      if (f.type === 'stepper' && (depth > 0 || insideRepeat)) problem('forms.def.stepperNotTop');
      if (CONTAINER_TYPES.has(f.type)) {
        if (!f.children?.length) problem('forms.def.needsChildren');
        if (depth >= MAX_DEPTH) problem('forms.def.tooDeep', { max: MAX_DEPTH });
        else if (f.children) {
          const scope = f.type === 'repeat' ? new Set<string>() : seen;
          walk(f.children, `${path}.children`, depth + 1, f.type, insideRepeat || f.type === 'repeat', scope);
        }
      } else if (f.children?.length) {
        problem('forms.def.noChildrenAllowed');
      }
    }
  };
  walk(parsed.data.fields, 'fields', 0, null, false, new Set());
  if (count > MAX_FIELDS) problems.push({ path: 'fields', reason: 'forms.def.tooMany', params: { max: MAX_FIELDS } });
  if (problems.length) throw new FormDefinitionError(problems);
  return parsed.data;
}

/**
 * A pattern from a form author runs on every submission, in the browser and
 * on the server: refuse ones that cannot compile and the nested quantifiers
 * that make regular expressions take exponential time.
 */
export function isSafePattern(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return false;
  }
  return !/\([^)]*[+*][^)]*\)\s*[+*{]/.test(pattern) && !/\\\d/.test(pattern);
}

/** Fields in display order (orderList, default 100, then as written). */
export function orderedFields(fields: FieldDef[]): FieldDef[] {
  return fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => (a.f.orderList ?? 100) - (b.f.orderList ?? 100) || a.i - b.i)
    .map((x) => x.f);
}

/** Every field that holds a value or shows text, at any depth (steppers and steps are only groups). */
export function scopeFieldsDeep(fields: FieldDef[]): FieldDef[] {
  return fields.flatMap((f) => {
    const inner = f.children ? scopeFieldsDeep(f.children) : [];
    return f.type === 'stepper' || f.type === 'step' ? inner : [f, ...inner];
  });
}
