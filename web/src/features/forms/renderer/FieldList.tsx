import Box from '@mui/material/Box';
import { type FieldDef, orderedFields } from '../../../../../core/forms/definition.js';
import { FIELD_REGISTRY } from '../registry.js';
import { condition } from './conditions.js';
import { useRenderer } from './context.js';
import { useConditionValues } from './hooks.js';

/**
 * Fields in their display order (orderList, then as written), in two
 * columns from md up when the form's layout is 'columns' and always in one
 * on phones. Groups, long texts and tables take the whole width.
 */
export function FieldList({ fields, columns }: { fields: FieldDef[]; columns?: boolean }) {
  const renderer = useRenderer();
  const twoColumns = columns ?? renderer.columns;
  return (
    <Box
      sx={{
        display: 'grid',
        gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: twoColumns ? 'repeat(2, minmax(0, 1fr))' : 'minmax(0, 1fr)' },
        columnGap: 2,
        alignItems: 'start',
      }}
    >
      {orderedFields(fields).map((field, index) => (
        // Names are unique in a valid definition; the index keeps keys apart while one is being edited.
        <FieldView key={`${index}:${field.name}`} field={field} narrow={!twoColumns} />
      ))}
    </Box>
  );
}

interface FieldViewProps {
  field: FieldDef;
  /** One column: inputs keep a readable width, groups and tables take it all. */
  narrow: boolean;
}

function FieldView(props: FieldViewProps) {
  return props.field.visibleWhen ? <ConditionalField {...props} /> : <FieldBody {...props} />;
}

/** A field with a visibility condition: it disappears (and the validator skips it) while the condition is false. */
function ConditionalField(props: FieldViewProps) {
  const values = useConditionValues();
  const { role } = useRenderer();
  if (!condition(props.field.visibleWhen)({ values, role })) return null;
  return <FieldBody {...props} />;
}

function FieldBody({ field, narrow }: FieldViewProps) {
  const spec = FIELD_REGISTRY[field.type];
  if (!spec) return null;
  const { Renderer } = spec;
  return (
    <Box sx={{ gridColumn: spec.fullWidth ? '1 / -1' : 'auto', minWidth: 0, maxWidth: narrow && !spec.fullWidth ? 640 : undefined }} data-field={field.name}>
      <Renderer field={field} name={field.name} />
    </Box>
  );
}
