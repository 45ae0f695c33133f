/**
 * The case list's search box ("Search by number, name or document"): what
 * is typed is split into words, and every word must be found in the case's
 * first or last name, or begin its case number or its document number;
 * accents and case are ignored. "Marisol Rivera", "rivera marisol",
 * "Rivé Mari", "2026-11-000123" and "1032" find what a person expects; a
 * full name typed as a phrase is found too, since each of its words is in
 * one of the names.
 *
 * - In a name, a word of three letters or digits or more is found anywhere
 *   (`%word%`, through the trigram index on `cases.search_name`, migration
 *   0012). A shorter word has no trigram of its own, and as a part of any
 *   name it would match most cases: it must start a word of the name
 *   instead (`% word%`), which the index finds through the trigrams of the
 *   word's leading space. "Wu", "Li" or initials ("M R") stay fast and exact.
 * - A number is matched from its start (`word%`, through a b-tree each):
 *   digits make poor trigrams, and people read a number from its start.
 *
 * Each is a LIKE that the index only narrows, so what a search returns is
 * exactly what these rules say, whichever plan PostgreSQL picks.
 */
import { type RawBuilder, sql } from 'kysely';

const EDGE_PUNCTUATION = /^[^\p{L}\p{M}\p{N}]+|[^\p{L}\p{M}\p{N}]+$/gu;

/** The words of a search text: split on spaces, punctuation around a word dropped ("Rivera," is "Rivera"), each once. */
export function searchWords(text: string): string[] {
  const words = text
    .split(/\s+/u)
    .map((w) => w.replace(EDGE_PUNCTUATION, ''))
    .filter((w) => w !== '');
  return [...new Set(words)];
}

/** Whether a word has three letters or digits in a row: a trigram of its own, found anywhere in a name. */
export const matchesAnywhere = (word: string) => /[\p{L}\p{M}\p{N}]{3}/u.test(word);

/**
 * Whether a word is the start of a case number to its month at least
 * ('2026-03', '2026-03-000123'). Case numbers follow time, so their matches
 * sit together in the newest-first order, often far from its start; the
 * planner assumes matches spread evenly and would walk the date index
 * through every newer case to find them (66 ms of PostgreSQL CPU for the
 * oldest thousand of 100,000 cases). The list sorts such a search by an
 * expression no index gives instead: PostgreSQL gathers the matches through
 * the number's index and sorts them (bench/case-list.ts).
 */
export const startsCaseNumber = (text: string) => searchWords(text).some((word) => /^\d{4}-\d{2}/.test(word));

/** `text` with LIKE's wildcards and escape character taken literally. */
const literal = (text: RawBuilder<string>) => sql<string>`replace(replace(replace(${text}, '\\', '\\\\'), '%', '\\%'), '_', '\\_')`;

/**
 * The search box's condition on `c` (cases), or undefined when nothing but
 * spaces or punctuation was typed. Words are folded by the database's own
 * `search_fold` (the one that made `search_name`), and escaped after it,
 * since folding can turn a full-width ％ into %.
 */
export function caseTextSearch(text: string): RawBuilder<boolean> | undefined {
  const words = searchWords(text);
  if (words.length === 0) return undefined;
  return sql<boolean>`(${sql.join(
    words.map((word) => {
      const inName = sql`${sql.lit(matchesAnywhere(word) ? '%' : '% ')} || ${literal(sql`search_fold(${word})`)} || '%'`;
      return sql<boolean>`(c.search_name like ${inName} or c.serial like ${literal(sql`${word}::text`)} || '%' or lower(c.data->>'documentNumber') like ${literal(sql`lower(${word})`)} || '%')`;
    }),
    sql` and `,
  )})`;
}
