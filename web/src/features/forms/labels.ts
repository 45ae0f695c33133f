import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../core/forms/definition.js';

type Option = NonNullable<FieldDef['options']>[number];

/**
 * The texts of a field in the page's language: `label_en` in English and
 * `label` (Spanish, the spec's default) otherwise, each falling back to the
 * other, then to the field's name.
 */
export function fieldLabel(field: Pick<FieldDef, 'name' | 'label' | 'label_en'>, language: string): string {
  const english = language.startsWith('en');
  return (english ? field.label_en || field.label : field.label || field.label_en) || field.name;
}

export function fieldHelp(field: Pick<FieldDef, 'help' | 'help_en'>, language: string): string | undefined {
  const english = language.startsWith('en');
  return (english ? field.help_en || field.help : field.help || field.help_en) || undefined;
}

export function optionLabel(option: Option, language: string): string {
  return (language.startsWith('en') ? option.label_en || option.label : option.label || option.label_en) || String(option.value);
}

/** The three functions above, bound to the page's current language. */
export function useFieldText() {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  return {
    language,
    label: (field: Pick<FieldDef, 'name' | 'label' | 'label_en'>) => fieldLabel(field, language),
    help: (field: Pick<FieldDef, 'help' | 'help_en'>) => fieldHelp(field, language),
    option: (option: Option) => optionLabel(option, language),
  };
}

/** A file size for people: 1.2 MB, 340 KB. */
export function formatBytes(bytes: number, language: string): string {
  const format = (n: number) => n.toLocaleString(language, { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format(bytes / 1024)} KB`;
  return `${format(bytes / (1024 * 1024))} MB`;
}
