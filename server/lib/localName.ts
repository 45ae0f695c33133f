import { type RawBuilder, sql } from 'kysely';

/**
 * A name in the reader's language, for the rows that keep two (issue 18):
 * `name` is the Spanish one (as a form field's `label`), `name_en` the
 * English one, '' when missing; each falls back to the other.
 */
export function localName(language: string, name: string, nameEn: string | null | undefined): string {
  return language === 'en' ? nameEn || name : name || nameEn || '';
}

/** The same in SQL, for `alias.name` and `alias.name_en`; `T` is `string | null` on a left join. */
export function localNameSql<T extends string | null = string>(alias: string, language: string): RawBuilder<T> {
  return language === 'en'
    ? sql<T>`coalesce(nullif(${sql.ref(`${alias}.name_en`)}, ''), ${sql.ref(`${alias}.name`)})`
    : sql<T>`coalesce(nullif(${sql.ref(`${alias}.name`)}, ''), ${sql.ref(`${alias}.name_en`)})`;
}
