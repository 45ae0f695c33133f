import Add from '@mui/icons-material/Add';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldDef } from '../../../../../core/forms/definition.js';
import { checkCondition } from '../../../../../core/forms/expr.js';
import { PARTY_ROLES } from '../../../../../core/parties.js';
import { useMasterPicker } from '../../masters/api.js';
import type { PropertyEditorKind } from '../registry.js';

type Options = NonNullable<FieldDef['options']>;

export interface PropertyEditorProps {
  id: string;
  label: string;
  help?: string;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The field being edited. */
  field: Omit<FieldDef, 'children'>;
  /** Other fields of the same scope a master select may depend on. */
  siblings: ReadonlyArray<Omit<FieldDef, 'children'>>;
}

function TextEditor({ id, label, help, value, onChange, multiline }: PropertyEditorProps & { multiline?: boolean }) {
  return (
    <TextField
      id={id}
      fullWidth
      size="small"
      margin="dense"
      label={label}
      helperText={help}
      value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
      onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
      multiline={multiline}
      minRows={multiline ? 2 : undefined}
    />
  );
}

function NameEditor(props: PropertyEditorProps) {
  return (
    <TextField
      id={props.id}
      fullWidth
      size="small"
      margin="dense"
      label={props.label}
      helperText={props.help}
      value={typeof props.value === 'string' ? props.value : ''}
      onChange={(event) => props.onChange(event.target.value.replace(/\s/g, '_'))}
      slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off' } }}
    />
  );
}

function NumberEditor({ id, label, help, value, onChange }: PropertyEditorProps) {
  return (
    <TextField
      id={id}
      fullWidth
      size="small"
      margin="dense"
      type="number"
      label={label}
      helperText={help}
      value={typeof value === 'number' ? String(value) : ''}
      onChange={(event) => {
        const text = event.target.value;
        onChange(text === '' || !Number.isFinite(Number(text)) ? undefined : Number(text));
      }}
    />
  );
}

function BooleanEditor({ label, help, value, onChange }: PropertyEditorProps) {
  const checked = value === true;
  return (
    <Box sx={{ mt: 1 }}>
      <FormControlLabel control={<Switch checked={checked} onChange={(event) => onChange(event.target.checked)} />} label={label} />
      {help && <FormHelperText sx={{ mt: 0 }}>{help}</FormHelperText>}
    </Box>
  );
}

function OptionsEditor({ id, label, value, onChange }: PropertyEditorProps) {
  const { t } = useTranslation();
  const options: Options = Array.isArray(value) ? (value as Options) : [];
  const set = (index: number, patch: Partial<Options[number]>) => onChange(options.map((o, i) => (i === index ? { ...o, ...patch } : o)));
  return (
    <Box component="fieldset" sx={{ border: 0, p: 0, m: 0, mt: 1 }} id={id}>
      <FormLabel component="legend">{label}</FormLabel>
      {options.map((option, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: options are edited in place; values may be typed twice meanwhile.
        <Box key={index} sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr auto', sm: '1fr 1.5fr 1.5fr auto' }, gap: 1, alignItems: 'center', mt: 1 }}>
          <TextField size="small" label={t('forms.props.optionValue')} value={String(option.value)} onChange={(event) => set(index, { value: event.target.value })} />
          <IconButton aria-label={t('forms.props.removeOption', { n: index + 1 })} onClick={() => onChange(options.filter((_, i) => i !== index))} sx={{ gridColumn: { sm: 4 }, gridRow: { sm: 1 } }}>
            <DeleteOutlined fontSize="small" />
          </IconButton>
          <TextField size="small" label={t('forms.props.optionLabelEn')} value={option.label_en ?? ''} onChange={(event) => set(index, { label_en: event.target.value || undefined })} sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' }, gridRow: { sm: 1 } }} />
          <TextField size="small" label={t('forms.props.optionLabel')} value={option.label} onChange={(event) => set(index, { label: event.target.value })} sx={{ gridColumn: { xs: '1 / -1', sm: 'auto' }, gridRow: { sm: 1 } }} />
        </Box>
      ))}
      <Button size="small" startIcon={<Add />} sx={{ mt: 1 }} onClick={() => onChange([...options, { value: `option${options.length + 1}`, label: '', label_en: '' }])}>
        {t('forms.props.addOption')}
      </Button>
    </Box>
  );
}

function MasterEditor({ id, label, help, value, onChange }: PropertyEditorProps) {
  const { t } = useTranslation();
  const masters = useMasterPicker();
  const items = masters.data?.items ?? [];
  const current = typeof value === 'string' ? value : '';
  return (
    <TextField
      id={id}
      select
      fullWidth
      size="small"
      margin="dense"
      label={label}
      helperText={help}
      value={current}
      onChange={(event) => onChange(event.target.value || undefined)}
    >
      <MenuItem value="">
        <em>{t('forms.props.chooseMaster')}</em>
      </MenuItem>
      {current && !items.some((m) => m.code === current) && <MenuItem value={current}>{current}</MenuItem>}
      {items.map((master) => (
        <MenuItem key={master.code} value={master.code}>
          {`${master.name} (${master.code})`}
        </MenuItem>
      ))}
    </TextField>
  );
}

function ParentFieldEditor({ id, label, help, value, onChange, field, siblings }: PropertyEditorProps) {
  const { t } = useTranslation();
  const candidates = siblings.filter((s) => s.type === 'master_select' && s.name !== field.name);
  const current = typeof value === 'string' ? value : '';
  return (
    <TextField id={id} select fullWidth size="small" margin="dense" label={label} helperText={help} value={current} onChange={(event) => onChange(event.target.value || undefined)}>
      <MenuItem value="">
        <em>{t('forms.props.noParent')}</em>
      </MenuItem>
      {current && !candidates.some((c) => c.name === current) && <MenuItem value={current}>{current}</MenuItem>}
      {candidates.map((candidate) => (
        <MenuItem key={candidate.name} value={candidate.name}>
          {candidate.label_en || candidate.label ? `${candidate.label_en || candidate.label} (${candidate.name})` : candidate.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

const COMMON_EXTENSIONS = ['pdf', 'jpg', 'jpeg', 'png', 'gif', 'doc', 'docx', 'xls', 'xlsx', 'csv', 'txt', 'odt'];

function ExtensionsEditor({ id, label, help, value, onChange }: PropertyEditorProps) {
  const list = Array.isArray(value) ? (value as string[]) : [];
  return (
    <Autocomplete<string, true, false, true>
      multiple
      freeSolo
      id={id}
      options={COMMON_EXTENSIONS}
      value={list}
      onChange={(_event, next) => {
        const clean = [...new Set(next.map((e) => e.trim().toLowerCase().replace(/^\./, '')).filter(Boolean))];
        onChange(clean.length ? clean : undefined);
      }}
      renderValue={(values, getItemProps) =>
        values.map((option, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={option} {...itemProps} />;
        })
      }
      renderInput={(params) => <TextField {...params} size="small" margin="dense" label={label} helperText={help} />}
    />
  );
}

/** A condition with its live parse error: where it fails, shown under the text with a caret. */
function ConditionEditor({ id, label, help, value, onChange }: PropertyEditorProps) {
  const { t } = useTranslation();
  const source = typeof value === 'string' ? value : '';
  const problem = source.trim() ? checkCondition(source) : undefined;
  const position = problem ? problem.position + 1 : 0;
  const detail = problem ? t(problem.key, problem.params) : '';
  return (
    <Box>
      <TextField
        id={id}
        fullWidth
        size="small"
        margin="dense"
        label={label}
        value={source}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
        error={!!problem}
        helperText={problem ? t('forms.props.conditionError', { position, detail }) : source.trim() ? t('forms.props.conditionOk') : help}
        slotProps={{ htmlInput: { spellCheck: false, autoCapitalize: 'off', style: { fontFamily: 'monospace' } } }}
      />
      {problem && (
        <Typography component="pre" variant="body2" color="error" aria-hidden sx={{ fontFamily: 'monospace', m: 0, px: 1.75, overflowX: 'auto' }}>
          {`${source}\n${' '.repeat(Math.max(0, position - 1))}^`}
        </Typography>
      )}
    </Box>
  );
}

/** One component per kind of property editor the registry names. */
export const PROPERTY_EDITORS: Record<PropertyEditorKind, ComponentType<PropertyEditorProps>> = {
  text: TextEditor,
  multiline: (props) => <TextEditor {...props} multiline />,
  number: NumberEditor,
  boolean: BooleanEditor,
  options: OptionsEditor,
  master: MasterEditor,
  parentField: ParentFieldEditor,
  extensions: ExtensionsEditor,
  condition: ConditionEditor,
  partyRole: PartyRoleEditor,
};

/** A party field's role: one fixed for every answer, or left to the person filling the form. */
function PartyRoleEditor({ id, label, help, value, onChange }: PropertyEditorProps) {
  const { t } = useTranslation();
  return (
    <TextField
      id={id}
      select
      fullWidth
      size="small"
      margin="dense"
      label={label}
      helperText={help}
      value={typeof value === 'string' ? value : ''}
      onChange={(event) => onChange(event.target.value || undefined)}
      slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
    >
      <MenuItem value="">{t('forms.props.partyRoleChosen')}</MenuItem>
      {PARTY_ROLES.map((role) => (
        <MenuItem key={role} value={role}>
          {t(`parties.roleTitle.${role}`)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The name of a field is its key in the data: a text editor that keeps spaces out. */
export const NAME_EDITOR = NameEditor;
