import { type Kysely, sql } from 'kysely';

/**
 * The public entry (`/publico/{entity}/{protocol}`, server/modules/public):
 *
 * - a protocol's public page in English and Spanish: its title (the
 *   protocol's name when empty), a description and who may apply. Plain
 *   text, capped here as in `core/api/protocols.ts` (`publicPageSchema`).
 * - an entity's `slug`, the short name of its public address beside its
 *   docnumber: lower-case letters, digits and single hyphens. A new entity
 *   gets one from its name (accent-folded by `search_fold` of 0012) when none
 *   is given, with `-<id>` added when another entity has it; existing
 *   entities get theirs here the same way, oldest first.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const capped = (column: string, max: number) => sql.raw(`check (char_length(${column}) <= ${max})`);
  await sql`
    alter table protocols
      add column public_title_en text not null default '' ${capped('public_title_en', 200)},
      add column public_title_es text not null default '' ${capped('public_title_es', 200)},
      add column public_description_en text not null default '' ${capped('public_description_en', 4000)},
      add column public_description_es text not null default '' ${capped('public_description_es', 4000)},
      add column eligibility_en text not null default '' ${capped('eligibility_en', 4000)},
      add column eligibility_es text not null default '' ${capped('eligibility_es', 4000)}`.execute(db);
  // The public pages list the published public protocols of an entity.
  await sql`create index protocols_public_idx on protocols (entity_id, code) where public and published_version is not null`.execute(db);

  await sql`alter table entities add column slug text`.execute(db);
  // The slug an entity named `name` with this id gets: its name's words, or `entity`; `-<id>` when taken.
  await sql`
    create function entity_slug(name text, entity_id bigint) returns text language plpgsql as $$
    declare
      base text := trim(both '-' from left(trim(both '-' from regexp_replace(search_fold(coalesce(name, '')), '[^a-z0-9]+', '-', 'g')), 40));
      candidate text;
      n integer := 1;
    begin
      if base = '' then base := 'entity'; end if;
      candidate := base;
      while exists (select 1 from entities e where e.slug = candidate and e.id <> entity_id) loop
        candidate := base || '-' || entity_id || case when n > 1 then '-' || n else '' end;
        n := n + 1;
      end loop;
      return candidate;
    end $$`.execute(db);
  await sql`
    create function entities_default_slug() returns trigger language plpgsql as $$
    begin
      if new.slug is null or new.slug = '' then new.slug := entity_slug(new.name, new.id); end if;
      return new;
    end $$`.execute(db);
  // One row at a time, oldest first, so each sees the slugs given before it.
  await sql`
    do $$
    declare r record;
    begin
      for r in select id, name from entities order by id loop
        update entities set slug = entity_slug(r.name, r.id) where id = r.id;
      end loop;
    end $$`.execute(db);
  await sql`
    alter table entities
      alter column slug set not null,
      add constraint entities_slug check (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and char_length(slug) <= 63),
      add constraint entities_slug_unique unique (slug)`.execute(db);
  await sql`create trigger entities_default_slug before insert or update of slug on entities for each row execute function entities_default_slug()`.execute(db);
}
