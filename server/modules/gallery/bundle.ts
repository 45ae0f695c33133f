/**
 * A bundle checked on its own, before any tenant is looked at: the format
 * and its version, the schema, every form definition, what each protocol
 * names (forms, teams, templates of the bundle; masters of the bundle or
 * built-in) and each protocol's graph (core/workflow/protocol.ts, with
 * stand-in ids). A file that fails is a 400 listing every problem.
 */
import { type Bundle, BUNDLE_FORMAT, BUNDLE_VERSION, bundleSchema } from '../../../core/api/gallery.js';
import { type FieldDef, type FormDefinition, FormDefinitionError, parseFormDefinition } from '../../../core/forms/definition.js';
import { parseProtocolDefinition, ProtocolDefinitionError, TASK_MAIL_EVENTS } from '../../../core/workflow/protocol.js';
import { SYSTEM_MASTERS } from '../../db/seed/masters.js';
import { checkTemplate } from '../../../core/templates/render.js';
import { AppError } from '../../errors.js';
import { unknownSources } from '../printing/sources.js';

export interface Problem {
  path: string;
  /** An i18n key, translated for the caller by the error handler or the plan. */
  message: string;
  params?: Record<string, unknown>;
}

/** Masters every tenant has (server/db/seed/masters.ts): a bundle names them without carrying them. */
export const BUILT_IN_MASTERS: ReadonlySet<string> = new Set(SYSTEM_MASTERS.map((m) => m.code));

/** Every master a form's fields name (master_select), nested fields included. */
export function mastersOfForm(def: { fields: FieldDef[] }): string[] {
  const out = new Set<string>();
  const walk = (fields: FieldDef[]) => {
    for (const f of fields) {
      if (f.type === 'master_select' && f.master) out.add(f.master);
      if (f.children) walk(f.children);
    }
  };
  walk(def.fields);
  return [...out];
}

/** The definition with each master_select's master renamed. */
export function renameMasters(def: FormDefinition, rename: ReadonlyMap<string, string>): FormDefinition {
  const walk = (fields: FieldDef[]): FieldDef[] =>
    fields.map((f) => ({ ...f, ...(f.type === 'master_select' && f.master && rename.has(f.master) ? { master: rename.get(f.master) } : {}), ...(f.children ? { children: walk(f.children) } : {}) }));
  return { ...def, fields: walk(def.fields) };
}

const duplicates = (codes: string[]) => codes.filter((c, i) => codes.indexOf(c) !== i);

export interface CheckedBundle {
  bundle: Bundle;
  forms: Map<string, FormDefinition>;
}

/** Parses and checks a bundle; BUNDLE_NEWER or BUNDLE_INVALID (with the problems) otherwise. */
export function checkBundle(input: unknown): CheckedBundle {
  const format = (input as { format?: unknown } | null)?.format;
  const m = typeof format === 'string' ? /^casebook\.project\/(\d+)$/.exec(format) : null;
  if (!m || typeof input !== 'object' || Array.isArray(input)) throw new AppError('BUNDLE_INVALID', {}, [{ path: 'format', message: 'gallery.problem.notABundle', params: { format: BUNDLE_FORMAT } }]);
  if (Number(m[1]) > BUNDLE_VERSION) throw new AppError('BUNDLE_NEWER', { version: m[1], supported: BUNDLE_VERSION });
  const parsed = bundleSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError(
      'BUNDLE_INVALID',
      {},
      parsed.error.issues.slice(0, 50).map((i) => ({ path: i.path.join('.'), message: i.message.includes('.') && !i.message.includes(' ') ? i.message : 'gallery.problem.schema', params: { detail: i.message } })),
    );
  }
  const bundle = parsed.data;
  const problems: Problem[] = [];
  const forms = new Map<string, FormDefinition>();

  for (const c of duplicates(bundle.forms.map((f) => f.code))) problems.push({ path: `forms.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  for (const c of duplicates(bundle.masters.map((x) => x.code))) problems.push({ path: `masters.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  for (const c of duplicates(bundle.teams.map((x) => x.code))) problems.push({ path: `teams.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  for (const c of duplicates(bundle.mailTemplates.map((x) => x.key))) problems.push({ path: `mailTemplates.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  for (const c of duplicates(bundle.protocols.map((x) => x.code))) problems.push({ path: `protocols.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });

  const masterCodes = new Set(bundle.masters.map((x) => x.code));
  const knownMaster = (c: string) => masterCodes.has(c) || BUILT_IN_MASTERS.has(c);
  for (const f of bundle.forms) {
    try {
      const def = parseFormDefinition(f.definition);
      forms.set(f.code, def);
      for (const master of mastersOfForm(def)) if (!knownMaster(master)) problems.push({ path: `forms.${f.code}`, message: 'gallery.problem.unknownMaster', params: { code: master } });
    } catch (e) {
      if (!(e instanceof FormDefinitionError)) throw e;
      for (const p of e.problems.slice(0, 20)) problems.push({ path: `forms.${f.code}.${p.path}`, message: p.reason, params: p.params });
    }
  }
  const byMaster = new Map(bundle.masters.map((x) => [x.code, x]));
  for (const master of bundle.masters) {
    if (master.parent && !knownMaster(master.parent)) problems.push({ path: `masters.${master.code}.parent`, message: 'gallery.problem.unknownMaster', params: { code: master.parent } });
    for (const c of duplicates(master.items.map((i) => i.code))) problems.push({ path: `masters.${master.code}.items.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
    const parent = master.parent ? byMaster.get(master.parent) : undefined;
    if (parent) {
      const parentItems = new Set(parent.items.map((i) => i.code));
      for (const item of master.items) if (item.parent && !parentItems.has(item.parent)) problems.push({ path: `masters.${master.code}.items.${item.code}.parent`, message: 'gallery.problem.unknownItem', params: { code: item.parent } });
    } else if (!master.parent) {
      for (const item of master.items) if (item.parent) problems.push({ path: `masters.${master.code}.items.${item.code}.parent`, message: 'gallery.problem.unknownItem', params: { code: item.parent } });
    }
  }

  const teamCodes = new Set(bundle.teams.map((x) => x.code));
  const templates = new Map(bundle.mailTemplates.map((x) => [x.key, x.event]));
  for (const p of bundle.protocols) {
    const path = `protocols.${p.code}`;
    if (!forms.has(p.mainForm) && !bundle.forms.some((f) => f.code === p.mainForm)) problems.push({ path: `${path}.mainForm`, message: 'gallery.problem.unknownForm', params: { code: p.mainForm } });
    // Stand-in ids: the graph is checked here, the tenant's ids at install.
    const formIds = new Map(bundle.forms.map((f, i) => [f.code, i + 1]));
    const teamIds = new Map(bundle.teams.map((t, i) => [t.code, i + 1]));
    const tasks = p.definition.tasks.map((t) => {
      const { form, responsible, mailTemplates, ...rest } = t;
      if (form !== null && !formIds.has(form)) problems.push({ path: `${path}.tasks.${t.code}.form`, message: 'gallery.problem.unknownForm', params: { code: form } });
      if (responsible.kind === 'team' && !teamCodes.has(responsible.team)) problems.push({ path: `${path}.tasks.${t.code}.responsible`, message: 'gallery.problem.unknownTeam', params: { code: responsible.team } });
      for (const [event, key] of Object.entries(mailTemplates ?? {})) {
        if (!(TASK_MAIL_EVENTS as readonly string[]).includes(event) || templates.get(key) !== event) problems.push({ path: `${path}.tasks.${t.code}.mailTemplates.${event}`, message: 'gallery.problem.unknownTemplate', params: { code: key } });
      }
      return {
        ...rest,
        formId: form === null ? null : (formIds.get(form) ?? 1),
        responsible: responsible.kind === 'team' ? { kind: 'team', teamId: teamIds.get(responsible.team) ?? 1 } : responsible.kind === 'user' ? { kind: 'user', userId: 1 } : responsible,
      };
    });
    const parties = p.definition.parties.map(({ form, ...rest }) => {
      if (form !== null && !formIds.has(form)) problems.push({ path: `${path}.parties.${rest.role}.form`, message: 'gallery.problem.unknownForm', params: { code: form } });
      return { ...rest, formId: form === null ? null : (formIds.get(form) ?? 1) };
    });
    try {
      parseProtocolDefinition({ ...p.definition, mainFormVersionId: undefined, tasks, parties });
    } catch (e) {
      if (!(e instanceof ProtocolDefinitionError)) throw e;
      for (const pr of e.problems.slice(0, 20)) problems.push({ path: `${path}.definition.${pr.path}`, message: pr.reason, params: pr.params });
    }
  }
  // Print templates: their protocol is the bundle's, their sources that protocol's form or the case's fields, their letters' placeholders the catalogue's.
  for (const c of duplicates(bundle.printTemplates.map((x) => x.key))) problems.push({ path: `printTemplates.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  const protocolByCode = new Map(bundle.protocols.map((p) => [p.code, p]));
  for (const pt of bundle.printTemplates) {
    const path = `printTemplates.${pt.key}`;
    const protocol = pt.protocol === null ? null : protocolByCode.get(pt.protocol);
    if (pt.protocol !== null && !protocol) problems.push({ path: `${path}.protocol`, message: 'gallery.problem.unknownProtocol', params: { code: pt.protocol } });
    const formFields = protocol ? (forms.get(protocol.mainForm)?.fields ?? []) : [];
    for (const source of unknownSources(pt.mapping, formFields)) problems.push({ path: `${path}.mapping`, message: 'gallery.problem.unknownSource', params: { code: pt.key, source } });
    if ([pt.htmlEn, pt.htmlEs].some((html) => checkTemplate(html).length > 0)) problems.push({ path: path, message: 'gallery.problem.badPlaceholder', params: { code: pt.key } });
  }
  // Items of built-in masters: only those masters, each once, parents in the file when their master is.
  for (const c of duplicates(bundle.builtInItems.map((x) => x.master))) problems.push({ path: `builtInItems.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
  const builtInItemCodes = new Map(bundle.builtInItems.map((x) => [x.master, new Set(x.items.map((i) => i.code))]));
  for (const entry of bundle.builtInItems) {
    const path = `builtInItems.${entry.master}`;
    if (!BUILT_IN_MASTERS.has(entry.master)) problems.push({ path, message: 'gallery.problem.unknownMaster', params: { code: entry.master } });
    for (const c of duplicates(entry.items.map((i) => i.code))) problems.push({ path: `${path}.${c}`, message: 'gallery.problem.duplicateCode', params: { code: c } });
    const parentMaster = SYSTEM_MASTERS.find((m) => m.code === entry.master)?.parent ?? null;
    const parents = parentMaster ? builtInItemCodes.get(parentMaster) : undefined;
    for (const item of entry.items) {
      if (item.parent && (!parentMaster || (parents && !parents.has(item.parent)))) problems.push({ path: `${path}.${item.code}.parent`, message: 'gallery.problem.unknownItem', params: { code: item.parent } });
    }
  }
  if (problems.length) throw new AppError('BUNDLE_INVALID', {}, problems);
  return { bundle, forms };
}

/** The first of `base`, `base-2`, `base-3` ... not in `taken` (within `max` characters). */
export function freeCode(base: string, taken: ReadonlySet<string>, max = 63, sep = '-'): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `${sep}${n}`;
    const c = `${base.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(c)) return c;
  }
}

/** A name without its trailing " (n)" made unique as "name (2)", "name (3)" ... */
export function freeName(base: string, taken: ReadonlySet<string>, max = 120): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const c = `${base.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(c)) return c;
  }
}

/** A code from a name: lower case, no accents, dashes ("Document review" -> "document-review"). */
export function slugOf(name: string): string {
  const s = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return /^[a-z]/.test(s) ? s : `t-${s}`.replace(/-+$/, '') || 'team';
}
