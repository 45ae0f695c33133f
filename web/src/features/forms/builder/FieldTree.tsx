import {
  type Announcements,
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import DragIndicator from '@mui/icons-material/DragIndicator';
import ErrorOutlined from '@mui/icons-material/ErrorOutlined';
import PlaylistAdd from '@mui/icons-material/PlaylistAdd';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactElement, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useFieldText } from '../labels.js';
import { FIELD_REGISTRY } from '../registry.js';
import { type FieldNode, findNode, siblingsOf } from './tree.js';

export interface FieldTreeProps {
  nodes: FieldNode[];
  selectedId: string | null;
  problems: ReadonlyMap<string, readonly string[]>;
  onSelect: (id: string) => void;
  /** Moves a node to `to` among its siblings. */
  onMove: (id: string, to: number) => void;
  onAddInside: (id: string) => void;
  onDelete: (id: string) => void;
}

/**
 * The field tree of the builder. Fields reorder within their parent by
 * dragging (pointer, or keyboard: Space, arrows, Space, through dnd-kit),
 * or with the Move up / Move down buttons; containers (repeat groups,
 * steppers, steps) hold their children under them.
 */
export function FieldTree(props: FieldTreeProps) {
  const { t } = useTranslation();
  const text = useFieldText();
  const { nodes, onMove } = props;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  // Only the dragged field's siblings are drop targets: fields move within their parent.
  const collision = useCallback<CollisionDetection>(
    (args) => {
      const siblings = new Set(siblingsOf(nodes, String(args.active.id)).map((n) => n.id));
      return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => siblings.has(String(c.id))) });
    },
    [nodes],
  );

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const to = siblingsOf(nodes, String(active.id)).findIndex((n) => n.id === over.id);
    if (to >= 0) onMove(String(active.id), to);
  };

  const announcements = useMemo<Announcements>(() => {
    const name = (id: string | number) => {
      const node = findNode(nodes, String(id));
      return node ? text.label(node.field) : String(id);
    };
    const position = (id: string | number | undefined) => {
      const siblings = id === undefined ? [] : siblingsOf(nodes, String(id));
      return { position: siblings.findIndex((n) => n.id === String(id)) + 1, count: siblings.length };
    };
    return {
      onDragStart: ({ active }) => t('forms.builder.dragStart', { name: name(active.id) }),
      onDragOver: ({ active, over }) => (over ? t('forms.builder.dragOver', { name: name(active.id), ...position(over.id) }) : undefined),
      onDragEnd: ({ active, over }) => (over ? t('forms.builder.dragEnd', { name: name(active.id), ...position(over.id) }) : undefined),
      onDragCancel: ({ active }) => t('forms.builder.dragCancel', { name: name(active.id) }),
    };
  }, [nodes, t, text]);

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={collision}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: { draggable: t('forms.builder.dragInstructions') } }}
    >
      <NodeList {...props} list={nodes} depth={0} />
    </DndContext>
  );
}

function NodeList(props: FieldTreeProps & { list: FieldNode[]; depth: number }) {
  const { list } = props;
  return (
    <SortableContext items={list.map((n) => n.id)} strategy={verticalListSortingStrategy}>
      <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 0.75 }}>
        {list.map((node, index) => (
          <NodeRow key={node.id} {...props} node={node} index={index} count={list.length} />
        ))}
      </Box>
    </SortableContext>
  );
}

function NodeRow(props: FieldTreeProps & { node: FieldNode; index: number; count: number; depth: number }) {
  const { node, index, count, depth, selectedId, problems, onSelect, onMove, onAddInside, onDelete } = props;
  const { t } = useTranslation();
  const text = useFieldText();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: node.id });
  const spec = FIELD_REGISTRY[node.field.type];
  const Icon = spec?.icon;
  const name = text.label(node.field);
  const selected = selectedId === node.id;
  const nodeProblems = problems.get(node.id) ?? [];
  const action = (label: string, icon: ReactElement, onClick: () => void, disabled = false, key?: string) => (
    <Tooltip title={label} describeChild>
      <span>
        <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled} data-action={key}>
          {icon}
        </IconButton>
      </span>
    </Tooltip>
  );
  return (
    <Box
      component="li"
      ref={setNodeRef}
      data-node-id={node.id}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      sx={{ position: 'relative', zIndex: isDragging ? 2 : undefined }}
    >
      <Box
        sx={{
          display: 'flex',
          flexWrap: 'wrap',
          alignItems: 'center',
          gap: 0.25,
          border: 1,
          borderColor: selected ? 'primary.main' : nodeProblems.length ? 'error.main' : 'divider',
          borderRadius: 1,
          bgcolor: selected ? 'action.selected' : 'background.paper',
          boxShadow: isDragging ? 4 : 0,
          pr: 0.5,
        }}
      >
        <IconButton size="small" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={t('forms.builder.drag', { name })} sx={{ cursor: 'grab', touchAction: 'none' }}>
          <DragIndicator fontSize="small" />
        </IconButton>
        <ButtonBase
          onClick={() => onSelect(node.id)}
          aria-pressed={selected}
          sx={{ flex: '1 1 140px', minWidth: 0, justifyContent: 'flex-start', textAlign: 'left', gap: 1, py: 0.75, px: 0.5, borderRadius: 1 }}
        >
          {Icon && <Icon fontSize="small" color="action" aria-hidden />}
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
              {name}
            </Typography>
            <Typography variant="caption" color="text.secondary" sx={{ overflowWrap: 'anywhere', display: 'block' }}>
              {`${node.field.name} · ${spec ? t(spec.labelKey) : node.field.type}`}
            </Typography>
          </Box>
          {nodeProblems.length > 0 && <ErrorOutlined fontSize="small" color="error" titleAccess={t('forms.builder.hasProblems')} sx={{ ml: 'auto' }} />}
        </ButtonBase>
        <Box sx={{ display: 'flex', ml: 'auto' }}>
          {action(t('forms.builder.moveUp', { name }), <ArrowUpward fontSize="small" />, () => onMove(node.id, index - 1), index === 0, 'up')}
          {action(t('forms.builder.moveDown', { name }), <ArrowDownward fontSize="small" />, () => onMove(node.id, index + 1), index === count - 1, 'down')}
          {node.children && action(t('forms.builder.addInside', { name }), <PlaylistAdd fontSize="small" />, () => onAddInside(node.id))}
          {action(t('forms.builder.deleteField', { name }), <DeleteOutlined fontSize="small" />, () => onDelete(node.id))}
        </Box>
      </Box>
      {node.children && (
        <Box sx={{ pl: { xs: 1, sm: 3 }, pt: 0.75, borderLeft: 2, borderColor: 'divider', ml: { xs: 1.5, sm: 2 } }}>
          {node.children.length > 0 ? (
            <NodeList {...props} list={node.children} depth={depth + 1} />
          ) : (
            <Typography variant="body2" color="text.secondary" sx={{ py: 0.5 }}>
              {t('forms.builder.emptyContainer')}
            </Typography>
          )}
        </Box>
      )}
    </Box>
  );
}
