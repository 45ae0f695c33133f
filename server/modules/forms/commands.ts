/**
 * What changes forms, as named verbs: create a form, and save a definition
 * (in place while the current version is unused; as a new version once a
 * task or case points at it, which keeps its own). Each is one transaction
 * taking the actor first. A bad definition is a 422 naming each field and
 * reason in the caller's language.
 */
import { type FormDefinition, FormDefinitionError, parseFormDefinition } from '../../../core/forms/definition.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import type { Actor } from '../acl/policy.js';
import { insertForm, insertFormVersion, lockForm, replaceFormVersion, updateForm } from './repo.js';

type Lang = 'en' | 'es';

/** The definition checked by core/forms; its problems, translated, as a 422 the builder can show field by field. */
export function checkFormDefinition(input: unknown, lang: Lang): FormDefinition {
  try {
    return parseFormDefinition(input);
  } catch (e) {
    if (!(e instanceof FormDefinitionError)) throw e;
    throw new AppError('UNPROCESSABLE', {}, e.problems.map((p) => ({ path: p.path, message: translate(lang, p.reason, p.params) })));
  }
}

/** A new form with its first version (DUPLICATE for a code the tenant uses, through server/db/constraints.ts). */
export async function createForm(db: Db, actor: Actor, input: { code: string; definition: unknown }, lang: Lang): Promise<number> {
  const def = checkFormDefinition(input.definition, lang);
  return db.transaction().execute((trx) => insertForm(trx, actor, input.code, def));
}

/** Saves a definition: a new version when the current one is in use, in place otherwise; a new code when given. */
export async function saveForm(db: Db, actor: Actor, formId: number, input: { definition: unknown; code?: string }, lang: Lang): Promise<void> {
  const def = checkFormDefinition(input.definition, lang);
  await db.transaction().execute(async (trx) => {
    const form = await lockForm(trx, actor, formId);
    let version = form.current_version;
    if (form.in_use) {
      version += 1;
      await insertFormVersion(trx, actor, form.id, version, def);
    } else {
      await replaceFormVersion(trx, actor, form.id, version, def);
    }
    await updateForm(trx, actor, form.id, def, version, input.code);
  });
}
