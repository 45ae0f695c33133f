/**
 * The gallery's SQL: what of the actor's tenant an install would collide
 * with, and a project of the tenant read out as a bundle. Every query
 * applies the actor's tenant; another tenant's project is NOT_FOUND.
 */
import { sql, type Transaction } from 'kysely';
import { type Bundle, BUNDLE_FORMAT_ID } from '../../../core/api/gallery.js';
import type { FormDefinition } from '../../../core/forms/definition.js';
import type { ProtocolDefinition } from '../../../core/workflow/protocol.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { freeCode, mastersOfForm, slugOf } from './bundle.js';

type Executor = Db | Transaction<Database>;

/** The codes and names of the tenant an install may collide with. */
export async function tenantNames(db: Executor, actor: Actor) {
  const e = actor.entityId;
  const [forms, masters, teams, templates, protocols, users, roles, printTemplates] = await Promise.all([
    db.selectFrom('forms').where('entity_id', '=', e).select('code').execute(),
    db.selectFrom('masters').where('entity_id', '=', e).select(['id', 'code']).execute(),
    db.selectFrom('teams').where('entity_id', '=', e).select(['id', 'name']).execute(),
    db.selectFrom('mail_templates').where('entity_id', '=', e).select('name').execute(),
    db.selectFrom('protocols').where('entity_id', '=', e).select('code').execute(),
    db.selectFrom('users').where('entity_id', '=', e).select(['id', 'email']).execute(),
    db.selectFrom('acl_roles').where('entity_id', '=', e).select('code').execute(),
    db.selectFrom('print_templates').where('entity_id', '=', e).select('name').execute(),
  ]);
  return {
    forms: new Set(forms.map((x) => x.code)),
    masters: new Map(masters.map((x) => [x.code, x.id])),
    teams: new Map(teams.map((x) => [x.name, x.id])),
    templates: new Set(templates.map((x) => x.name)),
    protocols: new Set(protocols.map((x) => x.code)),
    users: new Map(users.map((x) => [x.email.toLowerCase(), x.id])),
    roles: new Set(roles.map((x) => x.code)),
    printTemplates: new Set(printTemplates.map((x) => x.name)),
  };
}

/** How many items each of these built-in masters of the tenant has. */
export async function builtInItemCounts(db: Executor, actor: Actor, codes: string[]): Promise<Map<string, number>> {
  if (!codes.length) return new Map();
  const rows = await db
    .selectFrom('masters as m')
    .leftJoin('master_items as i', 'i.master_id', 'm.id')
    .where('m.entity_id', '=', actor.entityId)
    .where('m.system', '=', true)
    .where('m.code', 'in', codes)
    .groupBy('m.code')
    .select(['m.code', (eb) => eb.fn.count<string>('i.id').as('n')])
    .execute();
  return new Map(rows.map((r) => [r.code, Number(r.n)]));
}

/** Project uids are unique across tenants: whether any tenant uses this one. */
export async function uidTaken(db: Executor, uid: string): Promise<boolean> {
  return !!(await db.selectFrom('projects').where('uid', '=', uid).select('id').executeTakeFirst());
}

/**
 * A project's protocols: those linked to it (migration 0031), and, for the
 * tenant's first project, those linked to none (made in the editor or seeded).
 */
async function protocolsOfProject(db: Db, actor: Actor, projectId: number) {
  const first = await db.selectFrom('projects').where('entity_id', '=', actor.entityId).select(sql<number>`min(id)`.as('id')).executeTakeFirstOrThrow();
  return db
    .selectFrom('protocols as p')
    .leftJoin('project_protocols as pp', 'pp.protocol_id', 'p.id')
    .leftJoin('protocol_versions as v', (j) => j.onRef('v.protocol_id', '=', 'p.id').onRef('v.version', '=', 'p.published_version'))
    .where('p.entity_id', '=', actor.entityId)
    .where((eb) => (Number(first.id) === projectId ? eb.or([eb('pp.project_id', '=', projectId), eb('pp.project_id', 'is', null)]) : eb('pp.project_id', '=', projectId)))
    .select([
      'p.id', 'p.code', 'p.name', 'p.name_en', 'p.description', 'p.case_type', 'p.public', 'p.main_form_id', 'p.draft', 'v.definition as published',
      'p.public_title_en', 'p.public_title_es', 'p.public_description_en', 'p.public_description_es', 'p.eligibility_en', 'p.eligibility_es',
    ])
    .orderBy('p.id')
    .execute();
}

/** The protocols installed with a project (the install's answer and the confirm page's links). */
export async function projectProtocols(db: Db, actor: Actor, projectId: number) {
  return (await protocolsOfProject(db, actor, projectId)).map((p) => ({ id: p.id, code: p.code, name: (actor.language === 'en' && p.name_en) || p.name }));
}

/** A project of the actor's tenant as one bundle: its settings and its application, nothing of another tenant. */
export async function exportProject(db: Db, actor: Actor, uid: string, now = new Date()): Promise<Bundle> {
  const e = actor.entityId;
  const project = await db.selectFrom('projects').where('uid', '=', uid).where('entity_id', '=', e).selectAll().executeTakeFirst();
  if (!project) throw new AppError('NOT_FOUND');
  const protocols = await protocolsOfProject(db, actor, project.id);
  // Published definitions (the draft of a protocol never published).
  const defs = protocols.map((p) => (p.published ?? p.draft) as ProtocolDefinition);

  const formIds = [
    ...new Set(
      protocols.flatMap((p, i) => [
        p.main_form_id,
        ...defs[i].tasks.flatMap((t) => (t.formId === null ? [] : [t.formId])),
        ...(defs[i].parties ?? []).flatMap((x) => (x.formId === null ? [] : [x.formId])),
      ]),
    ),
  ];
  const forms = formIds.length
    ? await db
        .selectFrom('forms as f')
        .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
        .where('f.entity_id', '=', e)
        .where('f.id', 'in', formIds)
        .select(['f.id', 'f.code', 'v.definition'])
        .orderBy('f.id')
        .execute()
    : [];
  const formCode = new Map(forms.map((f) => [f.id, f.code]));

  // Masters the forms name that are not built in, with their parents that are not.
  const allMasters = await db.selectFrom('masters').where('entity_id', '=', e).select(['id', 'code', 'name', 'description', 'public', 'parent_id', 'system']).execute();
  const masterById = new Map(allMasters.map((m) => [m.id, m]));
  const masterByCode = new Map(allMasters.map((m) => [m.code, m]));
  const wanted = new Set<number>();
  const want = (id: number | null | undefined) => {
    const m = id ? masterById.get(id) : undefined;
    if (!m || m.system || wanted.has(m.id)) return;
    wanted.add(m.id);
    want(m.parent_id);
  };
  for (const f of forms) for (const c of mastersOfForm(f.definition as FormDefinition)) want(masterByCode.get(c)?.id);
  const masterList = allMasters.filter((m) => wanted.has(m.id)).sort((a, b) => a.id - b.id);
  const parentIds = [...new Set(masterList.flatMap((m) => (m.parent_id ? [m.parent_id] : [])))];
  const items = masterList.length
    ? await db
        .selectFrom('master_items')
        .where('entity_id', '=', e)
        .where('master_id', 'in', masterList.map((m) => m.id))
        .select(['master_id', 'code', 'name', 'name_en', 'active', 'extra', 'parent_item_id'])
        .orderBy('id')
        .execute()
    : [];
  const parentItems = parentIds.length
    ? new Map((await db.selectFrom('master_items').where('entity_id', '=', e).where('master_id', 'in', parentIds).select(['id', 'code']).execute()).map((x) => [x.id, x.code]))
    : new Map<number, string>();

  // Teams, users and templates the tasks name, by code, email and key.
  const tasks = defs.flatMap((d) => d.tasks);
  const teamIds = [...new Set(tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : [])))];
  const userIds = [...new Set(tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : [])))];
  const templateIds = [...new Set(tasks.flatMap((t) => Object.values(t.mailTemplates ?? {})))];
  const teams = teamIds.length ? await db.selectFrom('teams').where('entity_id', '=', e).where('id', 'in', teamIds).select(['id', 'name', 'description', 'assignment']).orderBy('id').execute() : [];
  const users = userIds.length ? await db.selectFrom('users').where('entity_id', '=', e).where('id', 'in', userIds).select(['id', 'email']).execute() : [];
  const templates = templateIds.length
    ? await db.selectFrom('mail_templates').where('entity_id', '=', e).where('id', 'in', templateIds).select(['id', 'name', 'event', 'subject_en', 'subject_es', 'body_html_en', 'body_html_es']).orderBy('id').execute()
    : [];
  const teamCode = new Map<number, string>();
  const usedTeamCodes = new Set<string>();
  for (const t of teams) {
    const c = freeCode(slugOf(t.name), usedTeamCodes);
    usedTeamCodes.add(c);
    teamCode.set(t.id, c);
  }
  const templateKey = new Map<number, string>();
  const usedKeys = new Set<string>();
  for (const t of templates) {
    const k = freeCode(slugOf(t.name), usedKeys);
    usedKeys.add(k);
    templateKey.set(t.id, k);
  }
  const userEmail = new Map(users.map((u) => [u.id, u.email]));

  // The items of the built-in masters the forms choose from, with their built-in parents (municipios -> departamentos), parents first.
  const builtInCodes = new Set<string>();
  const wantBuiltIn = (c: string | null | undefined) => {
    const m = c ? masterByCode.get(c) : undefined;
    if (!m || !m.system || builtInCodes.has(m.code)) return;
    wantBuiltIn(m.parent_id ? masterById.get(m.parent_id)?.code : null);
    builtInCodes.add(m.code);
  };
  for (const f of forms) for (const c of mastersOfForm(f.definition as FormDefinition)) wantBuiltIn(c);
  for (const m of masterList) wantBuiltIn(m.parent_id ? masterById.get(m.parent_id)?.code : null);
  const builtInItems = [];
  for (const code of builtInCodes) {
    const m = masterByCode.get(code) as (typeof allMasters)[number];
    const rows = await db
      .selectFrom('master_items as i')
      .leftJoin('master_items as p', 'p.id', 'i.parent_item_id')
      .where('i.entity_id', '=', e)
      .where('i.master_id', '=', m.id)
      .where('i.active', '=', true)
      .select(['i.code', 'i.name', 'i.name_en', 'p.code as parent'])
      .orderBy('i.id')
      .execute();
    if (rows.length) builtInItems.push({ master: code, items: rows.map((i) => ({ code: i.code, name: i.name, nameEn: i.name_en, parent: i.parent })) });
  }

  // The project's protocols' own print templates (the built-in ones every tenant has stay behind).
  const protocolIds = protocols.map((p) => p.id);
  const prints = protocolIds.length
    ? await db
        .selectFrom('print_templates')
        .where('entity_id', '=', e)
        .where('builtin', 'is', null)
        .where('protocol_id', 'in', protocolIds)
        .select(['id', 'kind', 'name', 'name_en', 'protocol_id', 'mapping', 'body_html_en', 'body_html_es', 'pdf', 'pdf_name'])
        .orderBy('id')
        .execute()
    : [];
  const protocolCode = new Map(protocols.map((p) => [p.id, p.code]));
  const printKeys = new Set<string>();

  return {
    format: BUNDLE_FORMAT_ID,
    exportedAt: now.toISOString(),
    project: {
      uid: project.uid, title: project.title, description: project.description,
      colors: { primary: project.color_primary, secondary: project.color_secondary, accent: project.color_accent, text: project.color_text },
      supportPhone: project.support_phone, timeZone: project.time_zone, language: project.language, idleTimeoutSeconds: project.idle_timeout_seconds,
      autosaveSeconds: project.autosave_seconds, newApplicationsDeadline: project.new_applications_deadline, allowNewApplications: project.allow_new_applications,
    },
    forms: forms.map((f) => ({ code: f.code, definition: f.definition })),
    masters: masterList.map((m) => ({
      code: m.code, name: m.name, description: m.description, public: m.public, parent: m.parent_id ? (masterById.get(m.parent_id)?.code ?? null) : null,
      items: items.filter((i) => i.master_id === m.id).map((i) => ({ code: i.code, name: i.name, nameEn: i.name_en, parent: i.parent_item_id ? (parentItems.get(i.parent_item_id) ?? null) : null, active: i.active, extra: i.extra ?? {} })),
    })),
    teams: teams.map((t) => ({ code: teamCode.get(t.id) as string, name: t.name, description: t.description, assignment: t.assignment })),
    mailTemplates: templates.map((t) => ({ key: templateKey.get(t.id) as string, name: t.name, event: t.event as Bundle['mailTemplates'][number]['event'], subjectEn: t.subject_en, subjectEs: t.subject_es, htmlEn: t.body_html_en, htmlEs: t.body_html_es })),
    protocols: protocols.map((p, i) => {
      const def = defs[i];
      return {
        code: p.code, name: p.name, nameEn: p.name_en, description: p.description, caseType: p.case_type, public: p.public, mainForm: formCode.get(p.main_form_id) as string,
        publicPage: { titleEn: p.public_title_en, titleEs: p.public_title_es, descriptionEn: p.public_description_en, descriptionEs: p.public_description_es, eligibilityEn: p.eligibility_en, eligibilityEs: p.eligibility_es },
        definition: {
          ...def,
          mainFormVersionId: undefined,
          tasks: def.tasks.map(({ formId, formVersionId: _v, responsible, mailTemplates, ...t }) => ({
            ...t,
            form: formId === null ? null : (formCode.get(formId) as string),
            responsible:
              responsible.kind === 'team'
                ? { kind: 'team' as const, team: teamCode.get(responsible.teamId) as string }
                : responsible.kind === 'user'
                  ? { kind: 'user' as const, email: userEmail.get(responsible.userId) ?? '' }
                  : responsible,
            ...(mailTemplates ? { mailTemplates: Object.fromEntries(Object.entries(mailTemplates).map(([ev, id]) => [ev, templateKey.get(id as number) as string])) } : {}),
          })),
          // Issue 23: each party role's form by code, as the tasks'.
          parties: (def.parties ?? []).map(({ formId, formVersionId: _v, ...x }) => ({ ...x, form: formId === null ? null : (formCode.get(formId) as string) })),
        },
      };
    }),
    builtInItems,
    printTemplates: prints.map((pt) => {
      const key = freeCode(slugOf(pt.name_en || pt.name), printKeys);
      printKeys.add(key);
      return {
        key, kind: pt.kind, name: pt.name, nameEn: pt.name_en, protocol: protocolCode.get(pt.protocol_id as number) as string,
        mapping: (pt.mapping ?? {}) as Record<string, string>, htmlEn: pt.body_html_en, htmlEs: pt.body_html_es,
        pdf: pt.pdf ? Buffer.from(pt.pdf).toString('base64') : null, pdfName: pt.pdf_name,
      };
    }),
  };
}
