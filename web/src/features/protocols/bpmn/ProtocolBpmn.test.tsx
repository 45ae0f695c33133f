// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { saveBlob } from '../../../lib/api.js';
import { jsonResponse, mockFetch, renderApp, sessionFixture, setScreenWidth, settingsFixture } from '../../../test/utils.js';
import type { ProtocolDetail } from '../api.js';
import { protocolDetail, stubResizeObserver, task } from '../testProtocol.js';

vi.mock('../../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));
vi.mock(import('../../../lib/api.js'), async (original) => ({ ...(await original()), saveBlob: vi.fn() }));

// bpmn-js draws with SVG measurements jsdom does not have: the page's use of it is what is checked here
// (loaded only when the diagram is shown, given the XML the export route answers); it is drawn for real in a browser.
const viewer = vi.hoisted(() => ({ created: [] as HTMLElement[], imported: [] as string[], destroyed: 0 }));
vi.mock('bpmn-js/lib/NavigatedViewer.js', () => ({
  default: class {
    constructor({ container }: { container: HTMLElement }) {
      viewer.created.push(container);
    }
    async importXML(xml: string) {
      viewer.imported.push(xml);
      return { warnings: [] };
    }
    get() {
      return { zoom: () => undefined };
    }
    destroy() {
      viewer.destroyed++;
    }
  },
}));

const detail = protocolDetail([task('intake', 'Intake review', { onAccept: [{ to: 'eligibility' }] }), task('eligibility', 'Eligibility', { onReject: { to: 'intake' } })]);

/** The draft after the Camunda file was taken without its timers. */
const imported = {
  ...detail,
  tasks: 2,
  changedSincePublished: true,
  definition: {
    ...detail.definition,
    start: ['activity_check'],
    tasks: [task('activity_check', 'Check the request', { onAccept: [{ to: 'activity_notify', when: 'amount > 5000' }] }), task('activity_notify', 'Notify')],
  },
  dropped: [
    { id: 'StartEvent_Weekly', type: 'bpmn:timerEventDefinition', message: 'StartEvent_Weekly is a start event with a bpmn:timerEventDefinition' },
    { id: 'Event_Wait', type: 'bpmn:timerEventDefinition', message: 'Event_Wait waits for or sends a bpmn:timerEventDefinition' },
  ],
};

const XML = '<?xml version="1.0" encoding="UTF-8"?>\n<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="Definitions_1"/>';
const unsupported = {
  error: {
    code: 'UNPROCESSABLE',
    message: 'The request could not be processed.',
    details: [
      { path: 'unsupported.StartEvent_Weekly', message: 'StartEvent_Weekly is a start event with a bpmn:timerEventDefinition: the engine does not start cases on timers' },
      { path: 'unsupported.Event_Wait', message: 'Event_Wait waits for or sends a bpmn:timerEventDefinition: the engine has no timers' },
    ],
  },
};

/** The protocol page's API; `importAnswers` answer the POSTs of a .bpmn file in turn. */
function serve(importAnswers: Array<() => Response> = []) {
  let answered = 0;
  // What the server holds: the imported draft once an import was taken.
  let current: ProtocolDetail = detail;
  return mockFetch((url, init) => {
    if (url.endsWith('/settings')) return jsonResponse(settingsFixture);
    if (url === '/api/auth/session') return jsonResponse(sessionFixture);
    if (url === '/api/protocols/1' && !init?.method) return jsonResponse(current);
    if (url.startsWith('/api/protocols/1/bpmn') && init?.method === 'POST') {
      const answer = importAnswers[answered++]();
      if (answer.ok) current = { ...imported, dropped: undefined } as unknown as ProtocolDetail;
      return answer;
    }
    if (url.startsWith('/api/protocols/1/bpmn')) {
      const name = url.endsWith('?version=1') ? 'small-v1.bpmn' : 'small-draft.bpmn';
      return new Response(XML, { headers: { 'content-type': 'application/xml; charset=utf-8', 'content-disposition': `attachment; filename="${name}"` } });
    }
    if (url.startsWith('/api/forms?')) return jsonResponse({ items: [{ id: 1, code: 'application', name: 'Application' }], total: 1 });
    if (url.startsWith('/api/forms/1')) return jsonResponse({ definition: { fields: [] } });
    if (url.startsWith('/api/teams?')) return jsonResponse({ items: [{ id: 1, name: 'Intake', assignment: 'round_robin', active: true }], total: 1 });
    if (url.startsWith('/api/team-members/user-options')) return jsonResponse([]);
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
}

const bpmnFile = () => new File(['<bpmn:definitions/>'], 'review.bpmn', { type: '' });
const chooseFile = (file: File) => fireEvent.change(screen.getByLabelText('BPMN 2.0 file (.bpmn)'), { target: { files: [file] } });
const posts = (fetchMock: ReturnType<typeof serve>) => fetchMock.mock.calls.filter(([url, init]) => String(url).startsWith('/api/protocols/1/bpmn') && init?.method === 'POST');

beforeEach(() => {
  setScreenWidth(1366);
  viewer.created.length = 0;
  viewer.imported.length = 0;
  vi.mocked(saveBlob).mockClear();
  stubResizeObserver();
});

describe('a protocol in BPMN 2.0', () => {
  test('exports the draft and each published version as a .bpmn file', async () => {
    const fetchMock = serve();
    renderApp('/protocolos/1');
    fireEvent.click(await screen.findByRole('button', { name: 'Export BPMN' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(1));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/protocols/1/bpmn')).toBe(true);
    const [blob, name] = vi.mocked(saveBlob).mock.calls[0];
    expect(name).toBe('small-draft.bpmn');
    expect(await blob.text()).toBe(XML);

    fireEvent.click(screen.getByRole('button', { name: 'Download version 1 as BPMN' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledTimes(2));
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/protocols/1/bpmn?version=1')).toBe(true);
    expect(vi.mocked(saveBlob).mock.calls[1][1]).toBe('small-v1.bpmn');
  });

  test('a file with timers is refused with each element named; dropping them imports it, and the editor shows the new draft', async () => {
    const fetchMock = serve([() => jsonResponse(unsupported, 422), () => jsonResponse(imported)]);
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    const file = bpmnFile();
    chooseFile(file);

    const dialog = await screen.findByRole('dialog', { name: 'Elements the engine cannot run' });
    expect(within(dialog).getByText(/review\.bpmn has 2 element\(s\) that Casebook's engine cannot run/)).toBeInTheDocument();
    const list = within(dialog).getByRole('list', { name: 'Elements the engine cannot run' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'StartEvent_WeeklyStartEvent_Weekly is a start event with a bpmn:timerEventDefinition: the engine does not start cases on timers',
      'Event_WaitEvent_Wait waits for or sends a bpmn:timerEventDefinition: the engine has no timers',
    ]);
    // The file went as it is, refusing what cannot run; nothing changed on the page.
    const [first] = posts(fetchMock);
    expect(first[0]).toBe('/api/protocols/1/bpmn?dropUnsupported=false');
    expect(first[1]?.body).toBe(file);
    expect(new Headers(first[1]?.headers).get('content-type')).toBe('application/xml');
    // (Behind the dialog, hidden from the accessibility tree.)
    expect(screen.getByRole('button', { name: 'Edit: Intake review', hidden: true })).toBeInTheDocument();

    fireEvent.click(within(dialog).getByRole('button', { name: 'Drop them and import' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(fetchMock).map(([url]) => url)).toEqual(['/api/protocols/1/bpmn?dropUnsupported=false', '/api/protocols/1/bpmn?dropUnsupported=true']);
    expect(posts(fetchMock)[1][1]?.body).toBe(file);
    expect(
      await screen.findByText('review.bpmn is now the draft (2 task(s)), without 2 element(s) the engine cannot run: check it, then publish it as a new version'),
    ).toBeInTheDocument();
    // The editor shows the imported draft.
    expect(await screen.findByRole('button', { name: 'Edit: Check the request' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit: Intake review' })).not.toBeInTheDocument();
  });

  test('cancelling the report imports nothing', async () => {
    const fetchMock = serve([() => jsonResponse(unsupported, 422)]);
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    chooseFile(bpmnFile());
    const dialog = await screen.findByRole('dialog', { name: 'Elements the engine cannot run' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(fetchMock)).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Edit: Intake review' })).toBeInTheDocument();
  });

  test('any other refusal lists its problems, with no way to drop anything', async () => {
    serve([
      () =>
        jsonResponse(
          {
            error: {
              code: 'VALIDATION',
              message: 'Some values are not valid: file: The file declares a DOCTYPE or an ENTITY',
              details: [{ path: 'file', message: 'The file declares a DOCTYPE or an ENTITY: such files are refused, as they can make the server read other files' }],
            },
          },
          400,
        ),
    ]);
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    chooseFile(bpmnFile());
    const dialog = await screen.findByRole('dialog', { name: 'The import was refused' });
    expect(within(dialog).getByText('Nothing from review.bpmn was imported. Fix these problems and try again:')).toBeInTheDocument();
    expect(within(dialog).getByText(/The file declares a DOCTYPE or an ENTITY: such files are refused/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Drop them and import' })).not.toBeInTheDocument();
  });

  test('with unsaved changes, the import asks before replacing the draft', async () => {
    const fetchMock = serve([() => jsonResponse(imported)]);
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'Small protocol 2' } });
    chooseFile(bpmnFile());
    const confirm = await screen.findByRole('dialog', { name: 'Replace the unsaved changes?' });
    fireEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posts(fetchMock)).toHaveLength(0);

    chooseFile(bpmnFile());
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Replace the unsaved changes?' })).getByRole('button', { name: 'Import and replace' }));
    expect(await screen.findByRole('button', { name: 'Edit: Check the request' })).toBeInTheDocument();
    expect(posts(fetchMock)).toHaveLength(1);
  });

  test('the process can be shown as a BPMN diagram, drawn from the exported XML by bpmn-js loaded only then', async () => {
    serve();
    renderApp('/protocolos/1');
    await screen.findByRole('button', { name: 'Edit: Intake review' });
    const views = screen.getByRole('group', { name: 'How to show the process' });
    expect(within(views).getByRole('button', { name: 'Graph' })).toHaveAttribute('aria-pressed', 'true');
    expect(viewer.created).toHaveLength(0);
    fireEvent.click(within(views).getByRole('button', { name: 'BPMN diagram' }));
    const diagram = await screen.findByRole('img', { name: 'BPMN diagram of the protocol' });
    await waitFor(() => expect(diagram).toHaveAttribute('data-state', 'shown'));
    expect(viewer.created).toEqual([diagram]);
    expect(viewer.imported).toEqual([XML]);
    expect(screen.getByText('The BPMN diagram shows the draft as last saved.')).toBeInTheDocument();
    fireEvent.click(within(views).getByRole('button', { name: 'Graph' }));
    await waitFor(() => expect(screen.queryByRole('img', { name: 'BPMN diagram of the protocol' })).not.toBeInTheDocument());
    expect(viewer.destroyed).toBeGreaterThan(0);
  });
});
