import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProtocolBpmnXml } from '../api.js';

/** What the page uses of a bpmn-js viewer. */
interface Viewer {
  importXML(xml: string): Promise<unknown>;
  get(service: 'canvas'): { zoom(level?: 'fit-viewport' | number, center?: 'auto'): number | undefined };
  destroy(): void;
}

/**
 * bpmn-js's navigated viewer (pan and zoom) with its styles: imported only
 * when a diagram is shown, so that neither is in the bundle of any other
 * page (this module itself is loaded lazily by the protocol page).
 */
async function loadViewer(container: HTMLElement): Promise<Viewer> {
  const [module] = await Promise.all([import('bpmn-js/lib/NavigatedViewer.js'), import('bpmn-js/dist/assets/diagram-js.css'), import('bpmn-js/dist/assets/bpmn-js.css')]);
  // An ES module in a package TypeScript reads as CommonJS: its class is the default export at run time.
  const NavigatedViewer = (module as unknown as { default: new (options: { container: HTMLElement }) => Viewer }).default;
  return new NavigatedViewer({ container });
}

/**
 * A protocol's saved draft as a BPMN diagram, drawn by bpmn-js from the XML
 * the export route answers (GET /api/protocols/:id/bpmn), so the page shows
 * exactly what a modeler would open.
 */
export default function BpmnDiagram({ protocolId }: { protocolId: number }) {
  const { t } = useTranslation();
  const xml = useProtocolBpmnXml(protocolId);
  const container = useRef<HTMLDivElement>(null);
  const [state, setState] = useState<'loading' | 'shown' | 'failed'>('loading');

  useEffect(() => {
    if (!xml.data || !container.current) return;
    let viewer: Viewer | undefined;
    let gone = false;
    setState('loading');
    loadViewer(container.current)
      .then(async (created) => {
        viewer = created;
        if (gone) return created.destroy();
        await created.importXML(xml.data);
        if (gone) return;
        // The whole process, with a margin so that the start and end events are not on the edge.
        const canvas = created.get('canvas');
        const fitted = canvas.zoom('fit-viewport', 'auto');
        if (typeof fitted === 'number') canvas.zoom(fitted * 0.92, 'auto');
        setState('shown');
      })
      .catch(() => !gone && setState('failed'));
    return () => {
      gone = true;
      viewer?.destroy();
    };
  }, [xml.data]);

  const failed = xml.isError || state === 'failed';
  return (
    <Box>
      {(xml.isPending || (state === 'loading' && !failed)) && <LinearProgress aria-label={t('protocols.bpmn.viewBpmn')} />}
      {failed && <Alert severity="error">{t('protocols.bpmn.diagramFailed')}</Alert>}
      <Box
        ref={container}
        role="img"
        aria-label={t('protocols.bpmn.diagramLabel')}
        data-state={state}
        sx={{ height: 420, border: 1, borderColor: 'divider', borderRadius: 1, bgcolor: '#fff', display: failed ? 'none' : 'block' }}
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        {t('protocols.bpmn.savedOnly')}
      </Typography>
    </Box>
  );
}
