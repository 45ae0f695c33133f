/**
 * The case list's search box ("Search by number, name or document"): what
 * is typed is split into words, and every word must be found in the case's
 * first or last name; a word that holds a digit may instead begin its case
 * number or its document number. Accents and case are ignored. "Marisol
 * Rivera", "rivera marisol", "Rivé Mari", "2026-11-000123" and "1032" find
 * what a person expects; a full name typed as a phrase is found too, since
 * each of its words is in one of the names.
 *
 * - In a name, a word of three letters or digits or more is found anywhere
 *   (`%word%`, through the trigram index on `cases.search_name`, migration
 *   0012). A shorter word has no trigram of its own, and as a part of any
 *   name it would match most cases: it must start a word of the name
 *   instead (`% word%`), which the index finds through the trigrams of the
 *   word's leading space. "Wu", "Li" or initials ("M R") stay fast and exact.
 * - A number is matched from its start (`word%`, through a b-tree each):
 *   digits make poor trigrams, and people read a number from its start.
 *   A word of letters only is a name: the words of a full name then go to
 *   the trigram index together, in one scan.
 *
 * Each is a LIKE that the indexes only narrow, so what a search returns is
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
 * Whether the list should gather a search's matches and sort them, rather
 * than walk the cases newest first until a page is full. PostgreSQL walks
 * when its estimate says matches are common enough, and assumes they are
 * spread evenly; two cases where that costs a walk through most cases:
 * - two words or more: a full name is usually rare, and the estimate of
 *   several words is a product of rough ones ('María Pérez 42', 110 of a
 *   million cases, estimated at 315: a walk through 400,000 cases, 216 ms
 *   of PostgreSQL CPU per page; gathered, 4.7 ms). The price is paid by a
 *   full name as common as 1% of all cases: 10,000 gathered, 31 ms.
 * - the start of a case number to its month at least ('2026-03'): case
 *   numbers follow time, so their matches sit together, often far from the
 *   newest (66 ms for the oldest thousand of 100,000 cases; gathered, 2.8).
 * A single name or document number is left to the planner: a common
 * surname is best found by the walk (0.9 ms for a name in 10% of cases).
 */
export function gatherThenSort(text: string): boolean {
  const words = searchWords(text);
  return words.length > 1 || words.some((word) => /^\d{4}-\d{2}/.test(word));
}

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
      const inName = sql<boolean>`c.search_name like ${sql.lit(matchesAnywhere(word) ? '%' : '% ')} || ${literal(sql`search_fold(${word})`)} || '%'`;
      if (!/\p{N}/u.test(word)) return inName;
      return sql<boolean>`(${inName} or c.serial like ${literal(sql`${word}::text`)} || '%' or lower(c.data->>'documentNumber') like ${literal(sql`lower(${word})`)} || '%')`;
    }),
    sql` and `,
  )})`;
}
