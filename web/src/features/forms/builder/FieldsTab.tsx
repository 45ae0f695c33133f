import Add from '@mui/icons-material/Add';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Paper from '@mui/material/Paper';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import { visuallyHidden } from '@mui/utils';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldType } from '../../../../../core/forms/definition.js';
import { useDialogs } from '../../../components/feedback/FeedbackProvider.js';
import i18n from '../../../i18n/index.js';
import { useFieldText } from '../labels.js';
import { FIELD_REGISTRY, typesAllowedIn } from '../registry.js';
import { FieldEditor } from './FieldEditor.js';
import { FieldTree } from './FieldTree.js';
import { TypePicker } from './TypePicker.js';
import {
  countDescendants,
  type FieldNode,
  findNode,
  freeName,
  insertNode,
  moveNode,
  namesInScope,
  newNodeId,
  removeNode,
  siblingsOf,
  updateField,
} from './tree.js';

interface FieldsTabProps {
  nodes: FieldNode[];
  onNodes: (change: (nodes: FieldNode[]) => FieldNode[]) => void;
  selectedId: string | null;
  onSelect: (id: string | null) => void;
  problems: ReadonlyMap<string, readonly string[]>;
}

/** A new field of `type`, named and labelled in both languages (the user renames it). */
export function createNode(type: FieldType, taken: Set<string>): FieldNode {
  const spec = FIELD_REGISTRY[type];
  const { children, ...rest } = spec.create();
  const field = {
    ...rest,
    name: freeName(type, taken),
    type,
    label: i18n.getFixedT('es')(spec.labelKey),
    label_en: i18n.getFixedT('en')(spec.labelKey),
  };
  const node: FieldNode = { id: newNodeId(), field, ...(children ? { children: [] } : {}) };
  // A stepper is made of steps: it starts with its first one.
  if (type === 'stepper') node.children = [createNode('step', new Set([...taken, field.name]))];
  return node;
}

/** The Fields tab: the tree on one side, the selected field's properties on the other (a dialog on phones). */
export function FieldsTab({ nodes, onNodes, selectedId, onSelect, problems }: FieldsTabProps) {
  const { t } = useTranslation();
  const text = useFieldText();
  const dialogs = useDialogs();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
  const panelTitleId = useId();
  const [picking, setPicking] = useState<{ parentId: string | null } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const treeRef = useRef<HTMLDivElement | null>(null);
  const refocus = useRef<{ id: string; action: string } | null>(null);
  const selected = selectedId ? findNode(nodes, selectedId) : undefined;

  useEffect(() => {
    // Spanish labels of new fields come from the Spanish texts, which load on demand.
    void i18n.loadLanguages('es');
  }, []);

  // After a move the pressed button may have been re-created: give the focus back to it (or its twin at an end).
  useEffect(() => {
    const wanted = refocus.current;
    if (!wanted || !treeRef.current) return;
    refocus.current = null;
    const row = treeRef.current.querySelector(`[data-node-id="${wanted.id}"]`);
    const button = row?.querySelector<HTMLButtonElement>(`[data-action="${wanted.action}"]:not(:disabled)`) ?? row?.querySelector<HTMLButtonElement>('[data-action]:not(:disabled)');
    button?.focus();
  });

  const add = (parentId: string | null, type: FieldType) => {
    const node = createNode(type, namesInScope(nodes, parentId));
    onNodes((current) => insertNode(current, parentId, node));
    onSelect(node.id);
    setPicking(null);
  };

  const startAdd = (parentId: string | null) => {
    const parent = parentId ? findNode(nodes, parentId) : undefined;
    const types = typesAllowedIn(parent?.field.type ?? null);
    // A stepper holds only steps: no need to ask.
    if (types.length === 1 && types[0]) add(parentId, types[0]);
    else setPicking({ parentId });
  };

  const move = (id: string, to: number) => {
    const siblings = siblingsOf(nodes, id);
    const node = findNode(nodes, id);
    if (!node || to < 0 || to >= siblings.length) return;
    const from = siblings.findIndex((n) => n.id === id);
    refocus.current = { id, action: to < from ? 'up' : 'down' };
    onNodes((current) => moveNode(current, id, to));
    setAnnouncement(t('forms.builder.moved', { name: text.label(node.field), position: to + 1, count: siblings.length }));
  };

  const remove = async (id: string) => {
    const node = findNode(nodes, id);
    if (!node) return;
    const inside = countDescendants(node);
    const name = text.label(node.field);
    const confirmed = await dialogs.confirm({
      title: t('forms.builder.deleteTitle'),
      message: inside ? t('forms.builder.confirmDeleteChildren', { name, count: inside }) : t('forms.builder.confirmDelete', { name }),
      confirmText: t('common.delete'),
    });
    if (!confirmed) return;
    onNodes((current) => removeNode(current, id));
    if (selectedId && (selectedId === id || findNode([node], selectedId))) onSelect(null);
  };

  const editor = selected ? (
    <FieldEditor node={selected} nodes={nodes} problems={problems.get(selected.id) ?? []} onChange={(patch) => onNodes((current) => updateField(current, selected.id, patch))} />
  ) : null;

  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(320px, 420px)' }, gap: 2, alignItems: 'start' }}>
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 } }}>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1.5 }}>
          <Typography component="h2" variant="subtitle1" sx={{ fontWeight: 600, flexGrow: 1 }}>
            {t('forms.builder.fieldTree')}
          </Typography>
          <Button variant="outlined" startIcon={<Add />} onClick={() => startAdd(null)}>
            {t('forms.builder.addField')}
          </Button>
        </Box>
        <Box ref={treeRef}>
          {nodes.length === 0 ? (
            <Typography color="text.secondary" sx={{ py: 3, textAlign: 'center' }}>
              {t('forms.builder.emptyFields')}
            </Typography>
          ) : (
            <FieldTree
              nodes={nodes}
              selectedId={selectedId}
              problems={problems}
              onSelect={onSelect}
              onMove={move}
              onAddInside={startAdd}
              onDelete={(id) => void remove(id)}
            />
          )}
        </Box>
        <Box role="status" aria-live="polite" sx={visuallyHidden}>
          {announcement}
        </Box>
      </Paper>
      {!phone && (
        <Paper
          component="section"
          aria-labelledby={panelTitleId}
          variant="outlined"
          sx={{ p: 2, position: 'sticky', top: 80, maxHeight: 'calc(100vh - 100px)', overflowY: 'auto' }}
        >
          <Typography id={panelTitleId} component="h2" variant="subtitle1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
            {selected ? t('forms.builder.propertiesOf', { name: text.label(selected.field) }) : t('forms.builder.properties')}
          </Typography>
          {editor ?? (
            <Typography color="text.secondary" sx={{ mt: 1 }}>
              {t('forms.builder.noSelection')}
            </Typography>
          )}
        </Paper>
      )}
      {phone && selected && (
        <Dialog open fullScreen onClose={() => onSelect(null)} aria-labelledby={panelTitleId}>
          <DialogTitle id={panelTitleId} sx={{ overflowWrap: 'anywhere' }}>
            {t('forms.builder.propertiesOf', { name: text.label(selected.field) })}
          </DialogTitle>
          <DialogContent dividers>{editor}</DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={() => onSelect(null)}>
              {t('common.close')}
            </Button>
          </DialogActions>
        </Dialog>
      )}
      {picking && (
        <TypePicker
          types={typesAllowedIn(picking.parentId ? (findNode(nodes, picking.parentId)?.field.type ?? null) : null)}
          onPick={(type) => add(picking.parentId, type)}
          onClose={() => setPicking(null)}
        />
      )}
    </Box>
  );
}
