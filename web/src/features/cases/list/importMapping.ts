import type { ImportJob } from '../api.js';

const normal = (text: string) => text.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/[\s_-]+/g, '');

/** Columns named like a field (its name or a label) start mapped to it. */
export function guessMapping(job: ImportJob, labels: (name: string) => string[]): Record<string, string> {
  const mapping: Record<string, string> = {};
  const taken = new Set<string>();
  for (const column of job.header) {
    const field = job.fields.find((f) => !taken.has(f.name) && [f.name, f.label, ...labels(f.name)].some((l) => l && normal(l) === normal(column)));
    if (field) {
      mapping[column] = field.name;
      taken.add(field.name);
    }
  }
  return mapping;
}

export const guessRef = (header: string[]) => header.find((h) => /^(ref|reference|referencia|external.?ref|external.?id|id)$/i.test(h.trim())) ?? header.find((h) => /ref/i.test(h)) ?? '';
