/**
 * A CSV of applicants for the demo's rental-assistance protocol, as the
 * bulk-import journeys, lifecycle tests and benchmark send it: the columns
 * are the application form's own field names (a repeat group's first row as
 * `group.field`), so they map themselves, after a `ref` column that
 * identifies each row. Rows listed in `bad` lack a first name and have an
 * invalid email.
 */
export const APPLICANT_COLUMNS = [
  'firstName', 'lastName', 'documentType', 'documentNumber', 'email', 'phone', 'departamento', 'municipio', 'zipCode', 'payRent', 'housing_assistance',
  'income_required_housing_assistance', 'householdInformation.memberName', 'householdInformation.relationship', 'householdInformation.age',
] as const;

/** The import's mapping body: every column to its own field, `ref` as the reference. */
export const APPLICANT_MAPPING = { mapping: Object.fromEntries(APPLICANT_COLUMNS.map((c) => [c, c])), refColumn: 'ref' };

/** `rows` applicants of run `run` (references `${run}-1`...), with a BOM, CRLF line ends. */
export function applicantsCsv(run: string, rows: number, bad: readonly number[] = []): string {
  const lines = [['ref', ...APPLICANT_COLUMNS].join(',')];
  for (let i = 1; i <= rows; i++) {
    const ok = !bad.includes(i);
    const section8 = i % 2 === 1;
    lines.push(
      [
        `${run}-${i}`, ok ? `Nombre${i}` : '', `Apellido ${i}`, 'CC', `${run}${i}`, ok ? `p${i}.${run}@example.org` : 'bad-email', '3001234567', '11', '11001', '11001',
        String(500 + (i % 900)), section8 ? 'sí' : 'no', section8 ? '250' : '', `Nombre${i} Apellido ${i}`, 'self', String(20 + (i % 60)),
      ].join(','),
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
