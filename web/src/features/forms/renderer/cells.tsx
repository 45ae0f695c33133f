import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../../core/forms/definition.js';
import { isEmpty } from '../../../../../core/forms/expr.js';
import { isPartyValue, partyText } from '../../../../../core/forms/data.js';
import { useFieldText } from '../labels.js';
import { useScopedValue } from './hooks.js';
import { fileRefs } from './widgets/FileWidget.js';
import { useFieldOptions } from './widgets/OptionWidgets.js';

export interface CellProps {
  field: FieldDef;
  value: unknown;
  /** The row the value belongs to (a master select's parent may be in it). */
  row: Record<string, unknown>;
}

/** A value as text in a repeat group's table. */
export function CellValue({ field, value, row }: CellProps) {
  const { t } = useTranslation();
  const text = useFieldText();
  if (field.type === 'master_select') return <MasterCell field={field} value={value} row={row} />;
  if (field.type === 'checkbox' || field.type === 'switch') return <>{value === true ? t('forms.renderer.yes') : value === false ? t('forms.renderer.no') : ''}</>;
  if (isEmpty(value)) return null;
  switch (field.type) {
    case 'select':
    case 'radio': {
      const option = field.options?.find((o) => String(o.value) === String(value));
      return <>{option ? text.option(option) : String(value)}</>;
    }
    case 'select_multiple':
    case 'select_multiple_external': {
      const values = Array.isArray(value) ? value : [value];
      const label = (v: unknown) => {
        const option = field.options?.find((o) => String(o.value) === String(v));
        return option ? text.option(option) : String(v);
      };
      return <>{values.map(label).join(', ')}</>;
    }
    case 'file':
      return <>{fileRefs(value).map((f) => f.name).join(', ')}</>;
    case 'party':
      return <>{isPartyValue(value) ? partyText(value) : ''}</>;
    case 'repeat':
      return <>{t('forms.renderer.rowCount', { count: Array.isArray(value) ? value.length : 0 })}</>;
    default:
      return <>{typeof value === 'object' ? JSON.stringify(value) : String(value)}</>;
  }
}

/** A master's code shown as its name (the options are cached from the row's dialog). */
function MasterCell({ field, value, row }: CellProps) {
  const outside = useScopedValue(field.type_aux);
  const parent = field.type_aux ? (Object.hasOwn(row, field.type_aux) ? row[field.type_aux] : outside) : undefined;
  const options = useFieldOptions(field, parent);
  if (isEmpty(value)) return null;
  return <>{options.data?.find((o) => o.value === String(value))?.label ?? String(value)}</>;
}
