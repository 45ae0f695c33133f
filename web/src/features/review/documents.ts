import { type FieldDef, type FormDefinition, orderedFields } from '../../../../core/forms/definition.js';
import { isFileRef, labelOf } from '../tasks/fieldText.js';

/** One stored file of a case, with where it sits in the form (a repeat row's file names its row). */
export interface CaseFile {
  id: string;
  name: string;
  /** The field's label, with the repeat groups and rows above it: "Income › Row 2 › Check stub". */
  place: string;
}

export type PreviewKind = 'image' | 'pdf' | 'other';

const IMAGE = new Set(['png', 'jpg', 'jpeg', 'gif', 'webp']);

/** How a file can be shown in the page, from its name's extension (the server checked the content on upload). */
export function previewKind(name: string): PreviewKind {
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? '';
  if (ext === 'pdf') return 'pdf';
  return IMAGE.has(ext) ? 'image' : 'other';
}

const asFiles = (value: unknown) => (Array.isArray(value) ? value : [value]).filter(isFileRef);

/**
 * Every file reference in the case data: the form's file fields through
 * steppers and steps, and those inside repeat groups' rows (nested groups
 * too). Files the form no longer names are listed after them, so a document
 * is never missing from the review. Each file once, in the form's order.
 */
export function caseFiles(
  form: FormDefinition | null,
  data: Record<string, unknown>,
  words: { language: string; row: (row: number) => string; other: string },
): CaseFile[] {
  const found = new Map<string, CaseFile>();
  const add = (value: unknown, place: string) => {
    for (const file of asFiles(value)) if (!found.has(file.id)) found.set(file.id, { id: file.id, name: file.name, place });
  };
  const walk = (fields: FieldDef[], values: Record<string, unknown>, prefix: string) => {
    for (const field of orderedFields(fields)) {
      if (field.type === 'stepper' || field.type === 'step') {
        walk(field.children ?? [], values, prefix);
        continue;
      }
      const place = `${prefix}${labelOf(field, words.language)}`;
      const value = values[field.name];
      if (field.type === 'file') add(value, place);
      else if (field.type === 'repeat' && Array.isArray(value)) {
        value.forEach((row, index) => {
          if (row && typeof row === 'object') walk(field.children ?? [], row as Record<string, unknown>, `${place} › ${words.row(index + 1)} › `);
        });
      }
    }
  };
  walk(form?.fields ?? [], data, '');
  // Anything else that holds a file reference (a field removed from the form since).
  const scan = (value: unknown) => {
    if (isFileRef(value)) add(value, words.other);
    else if (Array.isArray(value)) value.forEach(scan);
    else if (value && typeof value === 'object') Object.values(value).forEach(scan);
  };
  scan(data);
  return [...found.values()];
}
