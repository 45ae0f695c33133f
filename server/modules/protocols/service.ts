/**
 * Protocols: the draft being edited, checked against the tenant's forms,
 * teams and users; publishing freezes it as a numbered version with the
 * current versions of its forms, which become "in use" (their next save makes
 * a new version), so running cases keep what they started with.
 */
import { sql, type Transaction } from 'kysely';
import { parseProtocolDefinition, type ProtocolDefinition, ProtocolDefinitionError, type ProtocolProblem } from '../../../core/workflow/protocol.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';

type Trx = Transaction<Database>;

/** Parses a definition and checks that what it names exists in the tenant; a 422 lists every problem. */
export async function checkProtocolDefinition(trx: Trx, entityId: number, input: unknown, lang: 'en' | 'es'): Promise<ProtocolDefinition> {
  let def: ProtocolDefinition;
  const problems: ProtocolProblem[] = [];
  try {
    def = parseProtocolDefinition(input);
  } catch (e) {
    if (!(e instanceof ProtocolDefinitionError)) throw e;
    throw toAppError(e.problems, lang);
  }
  const formIds = [...new Set(def.tasks.map((t) => t.formId).filter((id): id is number => id !== null))];
  const teamIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'team' ? [t.responsible.teamId] : [])))];
  const userIds = [...new Set(def.tasks.flatMap((t) => (t.responsible.kind === 'user' ? [t.responsible.userId] : [])))];
  const known = async (table: 'forms' | 'teams' | 'users', ids: number[]) =>
    ids.length ? new Set((await trx.selectFrom(table).where('entity_id', '=', entityId).where('id', 'in', ids).select('id').execute()).map((r) => r.id)) : new Set<number>();
  const [forms, teams, users] = await Promise.all([known('forms', formIds), known('teams', teamIds), known('users', userIds)]);
  for (const t of def.tasks) {
    if (t.formId !== null && !forms.has(t.formId)) problems.push({ path: `tasks.${t.code}.formId`, reason: 'protocols.def.unknownForm' });
    if (t.responsible.kind === 'team' && !teams.has(t.responsible.teamId)) problems.push({ path: `tasks.${t.code}.responsible`, reason: 'protocols.def.unknownTeam' });
    if (t.responsible.kind === 'user' && !users.has(t.responsible.userId)) problems.push({ path: `tasks.${t.code}.responsible`, reason: 'protocols.def.unknownUser' });
  }
  if (problems.length) throw toAppError(problems, lang);
  return def;
}

function toAppError(problems: ProtocolProblem[], lang: 'en' | 'es'): AppError {
  return new AppError('UNPROCESSABLE', {}, problems.map((p) => ({ path: p.path, message: translate(lang, p.reason, p.params) })));
}

/** Freezes the draft as the next version, with the current versions of its forms. */
export async function publishProtocol(trx: Trx, entityId: number, protocolId: number, userId: number | null, lang: 'en' | 'es'): Promise<number> {
  const protocol = await trx.selectFrom('protocols').where('id', '=', protocolId).where('entity_id', '=', entityId).select(['id', 'draft', 'main_form_id']).forUpdate().executeTakeFirst();
  if (!protocol) throw new AppError('NOT_FOUND');
  const def = await checkProtocolDefinition(trx, entityId, protocol.draft, lang);
  const formIds = [...new Set([protocol.main_form_id, ...def.tasks.map((t) => t.formId).filter((id): id is number => id !== null)])];
  const versions = await trx
    .selectFrom('forms as f')
    .innerJoin('form_versions as v', (j) => j.onRef('v.form_id', '=', 'f.id').onRef('v.version', '=', 'f.current_version'))
    .where('f.entity_id', '=', entityId)
    .where('f.id', 'in', formIds)
    .select(['f.id as form_id', 'v.id'])
    .execute();
  const current = new Map(versions.map((v) => [v.form_id, v.id]));
  const mainFormVersionId = current.get(protocol.main_form_id);
  if (!mainFormVersionId) throw new AppError('UNPROCESSABLE', {}, [{ path: 'mainFormId', message: translate(lang, 'protocols.def.unknownForm') }]);
  const frozen: ProtocolDefinition = {
    ...def,
    mainFormVersionId,
    tasks: def.tasks.map((t) => ({ ...t, formVersionId: t.formId === null ? undefined : current.get(t.formId) })),
  };
  await trx.updateTable('form_versions').set({ in_use: true }).where('id', 'in', [...current.values()]).execute();
  const next = await trx
    .selectFrom('protocol_versions')
    .where('protocol_id', '=', protocolId)
    .select(sql<number>`coalesce(max(version), 0) + 1`.as('n'))
    .executeTakeFirstOrThrow();
  await trx.insertInto('protocol_versions').values({ entity_id: entityId, protocol_id: protocolId, version: next.n, definition: JSON.stringify(frozen), published_by: userId }).execute();
  await trx.updateTable('protocols').set({ published_version: next.n, updated_at: new Date() }).where('id', '=', protocolId).execute();
  return next.n;
}
