/**
 * The options of a form's fields as the server gives them (static, a
 * master's active items, or an external list fetched through the
 * SSRF-guarded fetch from a host the tenant allows), and the server's gate
 * for submitted values, which needs them.
 */
import { type FieldDef, type FormDefinition, scopeFieldsDeep } from '../../../core/forms/definition.js';
import { validateForm } from '../../../core/forms/validator.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { translate } from '../../i18n.js';
import { BlockedUrlError, safeFetchJson, toOptions } from '../../lib/safe-fetch.js';
import type { Actor } from '../acl/policy.js';
import { publicItems } from '../masters/routes.js';
import { allowedHosts, masterItemOptions } from './repo.js';

/** Options of one field: static ones, a master's active items, or an external list (fetched by the server, never the browser). */
export async function fieldOptions(db: Db, actor: Actor, urls: { publicUrl: string }, field: FieldDef, parent?: string): Promise<Array<{ value: string; label: string }>> {
  if (field.type === 'master_select' && field.master) return masterItemOptions(db, actor, field.master, parent);
  if (field.type === 'select_multiple_external' && field.external_url) {
    // The product's own public master URLs are answered from the database, not over the network.
    const own = ownPublicMaster(urls.publicUrl, field.external_url);
    if (own) return ((await publicItems(db, own.entity, own.code, actor.language)) ?? []).map((i) => ({ value: i.code, label: i.name }));
    try {
      return toOptions(await safeFetchJson(field.external_url, { allowedHosts: await allowedHosts(db, actor) }));
    } catch (e) {
      if (e instanceof BlockedUrlError) throw new AppError('UNPROCESSABLE', {}, [{ path: field.name, message: `forms.external.${e.reason}` }]);
      throw e;
    }
  }
  return (field.options ?? []).map((o) => ({ value: String(o.value), label: (actor.language === 'en' ? o.label_en : undefined) ?? o.label }));
}

function ownPublicMaster(publicUrl: string, url: string): { entity: string; code: string } | undefined {
  const prefix = `${publicUrl}/api/public/masters/`;
  if (!url.startsWith(prefix)) return undefined;
  const [entity, code, ...rest] = url.slice(prefix.length).split(/[/?#]/);
  if (!entity || !code || rest.some((r) => r !== '')) return undefined;
  return { entity: decodeURIComponent(entity), code };
}

/** Options the validator cannot read from the definition: masters and external lists. */
async function resolveAllOptions(db: Db, actor: Actor, urls: { publicUrl: string }, def: FormDefinition): Promise<Record<string, Array<string | number>>> {
  const out: Record<string, Array<string | number>> = {};
  for (const field of scopeFieldsDeep(def.fields)) {
    if (field.type === 'master_select' || field.type === 'select_multiple_external') {
      out[field.name] = (await fieldOptions(db, actor, urls, field)).map((o) => o.value);
    }
  }
  return out;
}

/**
 * Values checked by the server's copy of the form validator (the gate tasks
 * and cases use), options of masters and external lists included: the
 * cleaned values, or VALIDATION with each field's message in `lang`.
 */
export async function checkFormValues(db: Db, actor: Actor, urls: { publicUrl: string }, form: { definition: FormDefinition }, values: Record<string, unknown>, lang: 'en' | 'es') {
  const options = await resolveAllOptions(db, actor, urls, form.definition);
  const result = validateForm(form.definition, values, { role: actor.role.code, options });
  if (!result.success) throw new AppError('VALIDATION', {}, result.issues.map((i) => ({ path: i.path, message: translate(lang, i.key, i.params) })));
  return { values: result.data };
}
