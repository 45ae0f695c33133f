import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import {
  type Edge,
  Handle,
  MarkerType,
  type Node,
  type NodeProps,
  Position,
  ReactFlow,
  ReactFlowProvider,
  Controls,
  useReactFlow,
  useStore,
} from '@xyflow/react';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProtocolDefinition, TaskTemplate } from '../../../../../core/workflow/protocol.js';
import { STATE_COLORS } from '../../../../../core/workflow/states.js';
import { layoutProtocol, NODE_WIDTH } from './layout.js';

/** About the height of a task node, for centring. */
const NODE_HEIGHT = 70;

type TaskNodeData = { task: TaskTemplate; start: boolean; unreachable: boolean; problem: boolean; responsible: string };
type NotEligibleNodeData = { label: string };

const REJECT_COLOR = STATE_COLORS.REJECTED;

const hidden = { opacity: 0, width: 6, height: 6, minWidth: 0, minHeight: 0, border: 0 };

function TaskNode({ data }: NodeProps<Node<TaskNodeData>>) {
  const { t, i18n } = useTranslation();
  const { task } = data;
  const name = (i18n.resolvedLanguage === 'en' && task.name_en) || task.name || task.code;
  return (
    <Box
      sx={{
        width: NODE_WIDTH,
        px: 1.25,
        py: 1,
        bgcolor: 'background.paper',
        border: 2,
        borderColor: data.problem ? 'error.main' : data.start ? 'primary.main' : 'grey.500',
        borderStyle: data.unreachable ? 'dashed' : 'solid',
        borderRadius: 1.5,
        boxShadow: 1,
        fontSize: 12,
      }}
    >
      <Handle type="target" position={Position.Left} id="in" style={hidden} isConnectable={false} />
      <Handle type="target" position={Position.Bottom} id="back-in" style={hidden} isConnectable={false} />
      {data.start && (
        <Typography component="span" sx={{ fontSize: 10, fontWeight: 700, color: 'primary.dark', textTransform: 'uppercase', letterSpacing: 0.5 }}>
          {t('protocols.graph.start')}
        </Typography>
      )}
      <Typography sx={{ fontSize: 13, fontWeight: 600, lineHeight: 1.3, overflowWrap: 'anywhere' }}>{name}</Typography>
      <Typography sx={{ fontSize: 11, color: 'text.secondary', fontFamily: 'monospace' }}>{task.code}</Typography>
      <Typography sx={{ fontSize: 11, color: 'text.secondary' }}>
        {data.responsible}
        {task.join === 'all' ? ` · ${t('protocols.graph.waitsForAll')}` : ''}
      </Typography>
      {data.unreachable && <Typography sx={{ fontSize: 11, color: 'error.dark' }}>{t('protocols.graph.unreachable')}</Typography>}
      <Handle type="source" position={Position.Right} id="out" style={hidden} isConnectable={false} />
      <Handle type="source" position={Position.Bottom} id="back-out" style={hidden} isConnectable={false} />
    </Box>
  );
}

function NotEligibleNode({ data }: NodeProps<Node<NotEligibleNodeData>>) {
  return (
    <Box sx={{ px: 1.5, py: 0.75, borderRadius: 5, fontSize: 12, fontWeight: 600, color: '#fff', bgcolor: REJECT_COLOR }}>
      <Handle type="target" position={Position.Top} id="back-in" style={hidden} isConnectable={false} />
      {data.label}
    </Box>
  );
}

const nodeTypes = { task: TaskNode, notEligible: NotEligibleNode };

/**
 * Shows the drawing at a readable size: all of it when it fits at 60% or
 * more, otherwise from its left (the start) at 60%, to be panned or zoomed.
 */
function FitOnChange({ shape, bounds }: { shape: string; bounds: { width: number; minY: number; maxY: number } }) {
  const flow = useReactFlow();
  // Our own layout knows the size of the drawing: only the box and the pan-zoom need to be there.
  const ready = useStore((state) => !!state.panZoom);
  const width = useStore((state) => state.width);
  const height = useStore((state) => state.height);
  useEffect(() => {
    if (!ready || !width || !height) return;
    const pad = 16;
    const graphHeight = bounds.maxY - bounds.minY + NODE_HEIGHT;
    const zoom = Math.min(1, Math.max(0.6, Math.min((width - 2 * pad) / bounds.width, (height - 2 * pad) / graphHeight)));
    const x = bounds.width * zoom + 2 * pad <= width ? (width - bounds.width * zoom) / 2 : pad;
    const y = (height - graphHeight * zoom) / 2 - bounds.minY * zoom;
    void flow.setViewport({ x, y, zoom });
  }, [flow, ready, shape, bounds, width, height]);
  return null;
}

interface ProtocolGraphProps {
  definition: Pick<ProtocolDefinition, 'start' | 'tasks'>;
  /** Task codes with a problem from the last save, outlined in red. */
  problems?: ReadonlySet<string>;
  /** Who does a task, in words ("Team Intake"). */
  describeResponsible: (task: TaskTemplate) => string;
}

/**
 * The protocol drawn left to right from the start: accept edges solid (their
 * condition as the label), reject edges dashed back to their task or to "Not
 * eligible". Read-only; it follows the draft as it changes.
 */
export function ProtocolGraph({ definition, problems, describeResponsible }: ProtocolGraphProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const layout = useMemo(() => layoutProtocol(definition), [definition]);

  const nodes: Node[] = layout.nodes.map((node) => ({
    id: node.id,
    type: node.kind,
    position: { x: node.x, y: node.y },
    data:
      node.kind === 'task' && node.task
        ? { task: node.task, start: !!node.start, unreachable: !!node.unreachable, problem: problems?.has(node.id) ?? false, responsible: describeResponsible(node.task) }
        : { label: t('protocols.notEligible') },
    draggable: false,
    selectable: false,
    connectable: false,
  }));
  const acceptColor = theme.palette.text.secondary;
  const edges: Edge[] = layout.edges.map((edge) => {
    const reject = edge.kind === 'reject';
    return {
      id: edge.id,
      source: edge.source,
      target: edge.target,
      sourceHandle: reject ? 'back-out' : 'out',
      targetHandle: reject ? 'back-in' : 'in',
      type: reject ? 'smoothstep' : 'default',
      label: edge.label,
      labelStyle: { fontSize: 11, fill: theme.palette.text.primary, fontFamily: 'monospace' },
      labelBgStyle: { fill: theme.palette.background.paper },
      labelBgPadding: [4, 2] as [number, number],
      style: reject ? { stroke: REJECT_COLOR, strokeDasharray: '6 4', strokeWidth: 1.5 } : { stroke: acceptColor, strokeWidth: 1.5 },
      markerEnd: { type: MarkerType.ArrowClosed, color: reject ? REJECT_COLOR : acceptColor },
      ...(reject ? { pathOptions: { offset: 28, borderRadius: 12 } } : {}),
    };
  });
  const shape = layout.nodes.map((n) => `${n.id}@${n.x},${n.y}`).join('|');
  const bounds = useMemo(() => {
    const xs = layout.nodes.map((n) => n.x);
    const ys = layout.nodes.map((n) => n.y);
    return { width: Math.max(0, ...xs) - Math.min(0, ...xs) + NODE_WIDTH, minY: Math.min(0, ...ys), maxY: Math.max(0, ...ys) };
  }, [layout]);

  if (definition.tasks.length === 0) {
    return (
      <Box sx={{ p: 3, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: 'grey.50', textAlign: 'center' }}>
        <Typography color="text.secondary">{t('protocols.graph.empty')}</Typography>
      </Box>
    );
  }

  return (
    <Box
      role="figure"
      aria-label={t('protocols.graph.label', { count: definition.tasks.length })}
      sx={{
        height: { xs: 320, md: 420 },
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        bgcolor: 'grey.50',
        '& .react-flow__attribution': { bgcolor: 'transparent' },
        '& .react-flow__attribution a': { color: 'text.secondary' },
      }}
    >
      <ReactFlowProvider>
        <ReactFlow
          nodes={nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          nodesDraggable={false}
          nodesConnectable={false}
          elementsSelectable={false}
          zoomOnScroll={false}
          preventScrolling={false}
          minZoom={0.2}
        >
          <Controls showInteractive={false} />
          <FitOnChange shape={shape} bounds={bounds} />
        </ReactFlow>
      </ReactFlowProvider>
    </Box>
  );
}
