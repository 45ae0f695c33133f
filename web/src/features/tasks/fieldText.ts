import type { FieldDef } from '../../../../core/forms/definition.js';

type Option = NonNullable<FieldDef['options']>[number];

/** A field's label in the page's language: `label_en` in English, `label` (Spanish) otherwise, each falling back to the other. */
export function labelOf(field: Pick<FieldDef, 'name' | 'label' | 'label_en'>, language: string): string {
  const english = language.startsWith('en');
  return (english ? field.label_en || field.label : field.label || field.label_en) || field.name;
}

export function optionText(option: Option, language: string): string {
  return (language.startsWith('en') ? option.label_en || option.label : option.label || option.label_en) || String(option.value);
}

/** A file reference as forms store it. */
export function isFileRef(value: unknown): value is { id: string; name: string } {
  return !!value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' && typeof (value as { name?: unknown }).name === 'string';
}
