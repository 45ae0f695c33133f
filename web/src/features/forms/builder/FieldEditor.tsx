import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { FIELD_REGISTRY } from '../registry.js';
import { NAME_EDITOR, PROPERTY_EDITORS } from './propertyEditors.js';
import { type FieldNode, insideRepeat, parentOf } from './tree.js';

interface FieldEditorProps {
  node: FieldNode;
  nodes: FieldNode[];
  problems: readonly string[];
  onChange: (patch: Partial<FieldNode['field']>) => void;
}

/** The fields a master select may depend on: the others of its scope (a row's, or the form's with steps flattened). */
function scopeSiblings(nodes: FieldNode[], node: FieldNode): FieldNode['field'][] {
  let parent = parentOf(nodes, node.id) ?? null;
  while (parent && (parent.field.type === 'step' || parent.field.type === 'stepper')) parent = parentOf(nodes, parent.id) ?? null;
  const flatten = (list: FieldNode[]): FieldNode['field'][] =>
    list.flatMap((n) => (n.field.type === 'step' || n.field.type === 'stepper' ? flatten(n.children ?? []) : [n.field]));
  return flatten(parent ? (parent.children ?? []) : nodes);
}

/** The property editor of one field: the properties its type declares in the registry, with their problems on top. */
export function FieldEditor({ node, nodes, problems, onChange }: FieldEditorProps) {
  const { t } = useTranslation();
  const baseId = useId();
  const spec = FIELD_REGISTRY[node.field.type];
  if (!spec) return null;
  const Icon = spec.icon;
  const inRepeat = insideRepeat(nodes, node.id);
  const siblings = scopeSiblings(nodes, node);
  return (
    <Box>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, color: 'text.secondary' }}>
        <Icon fontSize="small" aria-hidden />
        <Typography variant="body2">{t(spec.labelKey)}</Typography>
      </Box>
      {problems.length > 0 && (
        <Alert severity="error" sx={{ mb: 1 }}>
          <Box component="ul" sx={{ m: 0, pl: 2 }}>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </Box>
        </Alert>
      )}
      {spec.properties
        .filter((property) => !property.inRepeatOnly || inRepeat)
        .map((property) => {
          const Editor = property.key === 'name' ? NAME_EDITOR : PROPERTY_EDITORS[property.editor];
          const value = node.field[property.key];
          return (
            <Editor
              key={property.key}
              id={`${baseId}-${property.key}`}
              label={t(property.labelKey)}
              help={property.helpKey ? t(property.helpKey) : undefined}
              value={value === undefined ? property.fallback : value}
              onChange={(next) => onChange({ [property.key]: next })}
              field={node.field}
              siblings={siblings}
            />
          );
        })}
    </Box>
  );
}
