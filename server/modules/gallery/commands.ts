/**
 * Installing a bundle (a gallery application or an imported export) into a
 * new project of the actor's tenant: `planInstall` says what will be made and
 * what is renamed or reused, changing nothing (the preview, the dry run);
 * `installBundle` does it in ONE transaction, all or nothing.
 *
 * Conflicts, decided once: a form, master or protocol whose code the tenant
 * uses gets a suffix (`-2`); an email template whose name is taken gets
 * " (2)"; a team whose name the tenant has is reused (teams are people,
 * and the tasks go to the team the tenant already runs); the project's uid
 * (unique across tenants) must be free. Protocols are created through the
 * protocols module (`checkProtocolDefinition`, `insertProtocol`,
 * `publishProtocol`), so an installed protocol is a valid, published one.
 */
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { installPlanSchema } from '../../../core/api/gallery.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { type Lang, translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { insertForm } from '../forms/repo.js';
import { checkProtocolDefinition, publishProtocol } from '../protocols/commands.js';
import { loadCheckedPdf } from '../printing/pdf.js';
import { insertPrintTemplate } from '../printing/repo.js';
import { insertProtocol } from '../protocols/repo.js';
import { htmlToText, sanitizeBody } from '../templates/html.js';
import { BUILT_IN_MASTERS, type CheckedBundle, freeCode, freeName, mastersOfForm, type Problem, renameMasters } from './bundle.js';
import { SYSTEM_MASTERS } from '../../db/seed/masters.js';
import { builtInItemCounts, tenantNames, uidTaken } from './repo.js';

type Trx = Transaction<Database>;
type Executor = Db | Trx;
export type InstallPlan = z.infer<typeof installPlanSchema>;
export interface Target {
  uid: string;
  title: string;
}

interface Resolved {
  plan: InstallPlan;
  forms: Map<string, string>;
  masters: Map<string, string>;
  teams: Map<string, { reuse: number } | { create: string }>;
  templates: Map<string, string>;
  printTemplates: Map<string, string>;
  /** The built-in masters (by code) whose tenant list is empty and gets the bundle's items. */
  fills: Set<string>;
  protocols: Map<string, string>;
  users: Map<string, number>;
  builtIn: Map<string, number>;
}

async function resolve(db: Executor, actor: Actor, checked: CheckedBundle, target: Target, lang: Lang): Promise<Resolved> {
  const { bundle } = checked;
  const names = await tenantNames(db, actor);
  const problems: Problem[] = [];
  const items: InstallPlan['items'] = [];
  const taken = await uidTaken(db, target.uid);
  if (taken) problems.push({ path: 'uid', message: 'gallery.problem.uidTaken', params: { uid: target.uid } });

  const masters = new Map<string, string>();
  const masterCodes = new Set(names.masters.keys());
  for (const m of bundle.masters) {
    const as = freeCode(m.code, masterCodes);
    masterCodes.add(as);
    masters.set(m.code, as);
    items.push({ kind: 'master', code: m.code, name: m.name, action: as === m.code ? 'create' : 'rename', as });
  }
  // Built-in masters the bundle names (as a form's master or a master's parent) must be the tenant's.
  const builtInNamed = new Set([...bundle.masters.flatMap((m) => (m.parent && !masters.has(m.parent) ? [m.parent] : [])), ...[...checked.forms.values()].flatMap(mastersOfForm).filter((c) => !masters.has(c))]);
  const builtIn = new Map<string, number>();
  for (const c of builtInNamed) {
    const id = names.masters.get(c);
    if (id === undefined || !BUILT_IN_MASTERS.has(c)) problems.push({ path: `masters.${c}`, message: 'gallery.problem.unknownMaster', params: { code: c } });
    else builtIn.set(c, id);
  }

  const forms = new Map<string, string>();
  const formCodes = new Set(names.forms);
  for (const f of bundle.forms) {
    const as = freeCode(f.code, formCodes);
    formCodes.add(as);
    forms.set(f.code, as);
    items.push({ kind: 'form', code: f.code, name: checked.forms.get(f.code)?.name ?? f.code, action: as === f.code ? 'create' : 'rename', as });
  }

  const teams = new Map<string, { reuse: number } | { create: string }>();
  for (const t of bundle.teams) {
    const id = names.teams.get(t.name);
    teams.set(t.code, id === undefined ? { create: t.name } : { reuse: id });
    items.push({ kind: 'team', code: t.code, name: t.name, action: id === undefined ? 'create' : 'reuse', as: t.name });
  }

  const templates = new Map<string, string>();
  const templateNames = new Set(names.templates);
  for (const t of bundle.mailTemplates) {
    const as = freeName(t.name, templateNames);
    templateNames.add(as);
    templates.set(t.key, as);
    items.push({ kind: 'mailTemplate', code: t.key, name: t.name, action: as === t.name ? 'create' : 'rename', as });
  }

  const protocols = new Map<string, string>();
  const protocolCodes = new Set(names.protocols);
  const users = new Map<string, number>();
  for (const p of bundle.protocols) {
    const as = freeCode(p.code, protocolCodes);
    protocolCodes.add(as);
    protocols.set(p.code, as);
    items.push({ kind: 'protocol', code: p.code, name: p.nameEn || p.name, action: as === p.code ? 'create' : 'rename', as });
    for (const t of p.definition.tasks) {
      if (t.responsible.kind === 'user') {
        const id = names.users.get(t.responsible.email.toLowerCase());
        if (id === undefined) problems.push({ path: `protocols.${p.code}.tasks.${t.code}.responsible`, message: 'gallery.problem.unknownUser', params: { email: t.responsible.email } });
        else users.set(t.responsible.email.toLowerCase(), id);
      }
      const role = (t as { escalation?: { role?: unknown } }).escalation?.role;
      if (typeof role === 'string' && !names.roles.has(role)) problems.push({ path: `protocols.${p.code}.tasks.${t.code}.escalation`, message: 'gallery.problem.unknownRole', params: { code: role } });
    }
  }

  // Built-in masters' items: an empty list of the tenant is filled; a list of its own is kept as it is.
  // A child item goes in only under a parent the tenant will have (the file's, filled now, or its own kept list's).
  const fills = new Set<string>();
  const counts = await builtInItemCounts(db, actor, bundle.builtInItems.map((x) => x.master));
  for (const entry of bundle.builtInItems) {
    const empty = (counts.get(entry.master) ?? 0) === 0;
    if (!empty) {
      items.push({ kind: 'master', code: entry.master, name: entry.master, action: 'keep', as: String(entry.items.length) });
      continue;
    }
    fills.add(entry.master);
    const parentMaster = SYSTEM_MASTERS.find((m) => m.code === entry.master)?.parent ?? null;
    const parents = parentMaster ? await parentCodes(db, actor, bundle, fills, parentMaster) : null;
    const going = entry.items.filter((it) => !it.parent || parents?.has(it.parent)).length;
    items.push({ kind: 'master', code: entry.master, name: entry.master, action: 'fill', as: String(going) });
  }

  // Print templates keep their name unless the tenant has it (" (2)"); an AcroForm's PDF is checked as an upload is.
  const printTemplates = new Map<string, string>();
  const printNames = new Set(names.printTemplates);
  for (const pt of bundle.printTemplates) {
    const as = freeName(pt.name, printNames);
    printNames.add(as);
    printTemplates.set(pt.key, as);
    items.push({ kind: 'printTemplate', code: pt.key, name: lang === 'en' ? pt.nameEn || pt.name : pt.name, action: as === pt.name ? 'create' : 'rename', as });
    if (pt.pdf !== null) {
      try {
        await loadCheckedPdf(Buffer.from(pt.pdf, 'base64'));
      } catch (e) {
        if (!(e instanceof AppError)) throw e;
        problems.push({ path: `printTemplates.${pt.key}.pdf`, message: 'gallery.problem.badPdf', params: { code: pt.key } });
      }
    }
  }

  const plan: InstallPlan = {
    project: { uid: target.uid, title: target.title, uidTaken: taken },
    items,
    problems: problems.map((p) => ({ path: p.path, message: translate(lang, p.message, p.params) })),
    ok: problems.length === 0,
  };
  return { plan, forms, masters, teams, templates, printTemplates, fills, protocols, users, builtIn };
}

/** The item codes a built-in parent master will have: the file's when it fills that list, else the tenant's own. */
async function parentCodes(db: Executor, actor: Actor, bundle: CheckedBundle['bundle'], fills: ReadonlySet<string>, master: string): Promise<Set<string>> {
  if (fills.has(master)) return new Set(bundle.builtInItems.find((x) => x.master === master)?.items.map((i) => i.code) ?? []);
  const rows = await db.selectFrom('master_items as i').innerJoin('masters as m', 'm.id', 'i.master_id').where('i.entity_id', '=', actor.entityId).where('m.code', '=', master).select('i.code').execute();
  return new Set(rows.map((r) => r.code));
}

/** What installing the bundle would do; nothing is written. */
export async function planInstall(db: Db, actor: Actor, checked: CheckedBundle, target: Target, lang: Lang): Promise<InstallPlan> {
  return (await resolve(db, actor, checked, target, lang)).plan;
}

export interface Installed {
  plan: InstallPlan;
  projectId: number;
  protocols: Array<{ id: number; code: string; name: string }>;
}

/** Creates the project and everything of the bundle in one transaction; nothing when anything fails. */
export async function installBundle(db: Db, actor: Actor, checked: CheckedBundle, target: Target, lang: Lang): Promise<Installed> {
  return db.transaction().execute(async (trx) => {
    const r = await resolve(trx, actor, checked, target, lang);
    if (r.plan.project.uidTaken) throw new AppError('DUPLICATE', { field: 'uid' });
    if (!r.plan.ok) throw new AppError('BUNDLE_INVALID', {}, r.plan.problems);
    const { bundle } = checked;
    const e = actor.entityId;
    const p = bundle.project;
    const project = await trx
      .insertInto('projects')
      .values({
        entity_id: e, uid: target.uid, title: target.title, description: p.description,
        color_primary: p.colors.primary, color_secondary: p.colors.secondary, color_accent: p.colors.accent, color_text: p.colors.text,
        support_phone: p.supportPhone, time_zone: p.timeZone, language: p.language, idle_timeout_seconds: p.idleTimeoutSeconds, autosave_seconds: p.autosaveSeconds,
        new_applications_deadline: p.newApplicationsDeadline, allow_new_applications: p.allowNewApplications, is_default: false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    // The built-in masters' items, into the tenant's empty lists (parents first: the file keeps that order).
    for (const entry of bundle.builtInItems) {
      if (!r.fills.has(entry.master)) continue;
      const masterId = (await tenantNames(trx, actor)).masters.get(entry.master) as number;
      const parentMaster = SYSTEM_MASTERS.find((m) => m.code === entry.master)?.parent ?? null;
      const parentIds = parentMaster
        ? new Map((await trx.selectFrom('master_items as i').innerJoin('masters as m', 'm.id', 'i.master_id').where('i.entity_id', '=', e).where('m.code', '=', parentMaster).select(['i.id', 'i.code']).execute()).map((x) => [x.code, x.id]))
        : new Map<string, number>();
      // As the plan said: an item whose parent the tenant will not have is left out.
      const going = entry.items.filter((it) => !it.parent || parentIds.has(it.parent));
      for (let k = 0; k < going.length; k += 500) {
        await trx
          .insertInto('master_items')
          .values(going.slice(k, k + 500).map((it) => ({ entity_id: e, master_id: masterId, code: it.code, name: it.name, name_en: it.nameEn, parent_item_id: it.parent ? (parentIds.get(it.parent) as number) : null })))
          .execute();
      }
    }

    // Masters, parents first; items keep their parent item by code.
    const masterIds = new Map<string, number>();
    const itemIds = new Map<string, Map<string, number>>();
    const itemsOf = async (code: string) => {
      if (itemIds.has(code)) return itemIds.get(code) as Map<string, number>;
      const id = r.builtIn.get(code) as number;
      const rows = await trx.selectFrom('master_items').where('entity_id', '=', e).where('master_id', '=', id).select(['id', 'code']).execute();
      const map = new Map(rows.map((x) => [x.code, x.id]));
      itemIds.set(code, map);
      return map;
    };
    const pending = [...bundle.masters];
    while (pending.length) {
      const i = pending.findIndex((m) => !m.parent || !r.masters.has(m.parent) || masterIds.has(m.parent));
      const m = pending.splice(i === -1 ? 0 : i, 1)[0];
      const parentId = m.parent ? (masterIds.get(m.parent) ?? r.builtIn.get(m.parent) ?? null) : null;
      const row = await trx
        .insertInto('masters')
        .values({ entity_id: e, code: r.masters.get(m.code) as string, name: m.name, description: m.description, public: m.public, parent_id: parentId, system: false })
        .returning('id')
        .executeTakeFirstOrThrow();
      masterIds.set(m.code, row.id);
      const parentItems = m.parent ? await itemsOf(m.parent) : new Map<string, number>();
      const missing = m.items.filter((it) => it.parent && !parentItems.has(it.parent));
      if (missing.length) throw new AppError('BUNDLE_INVALID', {}, missing.map((it) => ({ path: `masters.${m.code}.items.${it.code}.parent`, message: 'gallery.problem.unknownItem', params: { code: it.parent } })));
      const made = new Map<string, number>();
      for (let k = 0; k < m.items.length; k += 500) {
        const rows = await trx
          .insertInto('master_items')
          .values(
            m.items.slice(k, k + 500).map((it) => ({
              entity_id: e, master_id: row.id, code: it.code, name: it.name, name_en: it.nameEn, active: it.active, extra: JSON.stringify(it.extra),
              parent_item_id: it.parent ? (parentItems.get(it.parent) as number) : null,
            })),
          )
          .returning(['id', 'code'])
          .execute();
        for (const x of rows) made.set(x.code, x.id);
      }
      itemIds.set(m.code, made);
    }

    const renamed = new Map([...r.masters].filter(([from, to]) => from !== to));
    const formIds = new Map<string, number>();
    for (const f of bundle.forms) {
      const def = renameMasters(checked.forms.get(f.code) as FormDefinition, renamed);
      formIds.set(f.code, await insertForm(trx, actor, r.forms.get(f.code) as string, def));
    }

    const teamIds = new Map<string, number>();
    for (const t of bundle.teams) {
      const plan = r.teams.get(t.code) as { reuse: number } | { create: string };
      if ('reuse' in plan) teamIds.set(t.code, plan.reuse);
      else teamIds.set(t.code, (await trx.insertInto('teams').values({ entity_id: e, name: t.name, description: t.description, assignment: t.assignment }).returning('id').executeTakeFirstOrThrow()).id);
    }

    const templateIds = new Map<string, number>();
    for (const t of bundle.mailTemplates) {
      const en = sanitizeBody(t.htmlEn);
      const es = sanitizeBody(t.htmlEs);
      const row = await trx
        .insertInto('mail_templates')
        .values({
          entity_id: e, name: r.templates.get(t.key) as string, event: t.event, subject_en: t.subjectEn, subject_es: t.subjectEs,
          body_html_en: en, body_html_es: es, body_text_en: htmlToText(en), body_text_es: htmlToText(es), is_default: false,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      templateIds.set(t.key, row.id);
    }

    const protocols: Installed['protocols'] = [];
    const protocolIds = new Map<string, number>();
    for (const p of bundle.protocols) {
      const tasks = p.definition.tasks.map(({ form, responsible, mailTemplates, ...rest }) => ({
        ...rest,
        formId: form === null ? null : formIds.get(form),
        responsible:
          responsible.kind === 'team'
            ? { kind: 'team', teamId: teamIds.get(responsible.team) }
            : responsible.kind === 'user'
              ? { kind: 'user', userId: r.users.get(responsible.email.toLowerCase()) }
              : responsible,
        ...(mailTemplates ? { mailTemplates: Object.fromEntries(Object.entries(mailTemplates).map(([event, key]) => [event, templateIds.get(key)])) } : {}),
      }));
      const parties = p.definition.parties.map(({ form, ...rest }) => ({ ...rest, formId: form === null ? null : formIds.get(form) }));
      const def = await checkProtocolDefinition(trx, actor, { ...p.definition, mainFormVersionId: undefined, tasks, parties }, lang);
      const code = r.protocols.get(p.code) as string;
      const id = await insertProtocol(
        trx,
        actor,
        { code, name: p.name, nameEn: p.nameEn, description: p.description, caseType: p.caseType, public: p.public, mainFormId: formIds.get(p.mainForm) as number, publicPage: p.publicPage },
        def,
      );
      await publishProtocol(trx, actor, id, lang);
      protocolIds.set(p.code, id);
      await trx.insertInto('project_protocols').values({ entity_id: e, project_id: project.id, protocol_id: id }).execute();
      protocols.push({ id, code, name: (lang === 'en' && p.nameEn) || p.name });
    }
    for (const pt of bundle.printTemplates) {
      const pdf = pt.pdf === null ? null : Buffer.from(pt.pdf, 'base64');
      await insertPrintTemplate(trx, e, {
        kind: pt.kind,
        name: r.printTemplates.get(pt.key) as string,
        name_en: pt.nameEn,
        protocol_id: pt.protocol === null ? null : (protocolIds.get(pt.protocol) as number),
        mapping: pt.mapping,
        body_html_en: sanitizeBody(pt.htmlEn),
        body_html_es: sanitizeBody(pt.htmlEs),
        pdf,
        pdf_name: pdf ? (pt.pdfName ?? `${pt.key}.pdf`) : null,
      });
    }
    return { plan: r.plan, projectId: project.id, protocols };
  });
}
