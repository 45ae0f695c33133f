// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import type { FormDefinition } from '../../../../core/forms/definition.js';
import type { Ack, Room } from '../../../../core/realtime.js';
import { createQueryClient } from '../../app/queryClient.js';
import { SessionContext } from '../../app/session/session.js';
import { FeedbackProvider } from '../../components/feedback/FeedbackProvider.js';
import { clearToasts } from '../../components/feedback/toastStore.js';
import i18n from '../../i18n/index.js';
import { goTo } from '../../lib/browser.js';
import type { RoomState } from '../../lib/realtime.js';
import { jsonResponse, mockFetch, sessionFixture } from '../../test/utils.js';
import { commentKeys } from '../comments/api.js';
import { caseKeys } from '../cases/api/keys.js';
import { caseFiles } from './documents.js';
import { DocumentReview } from './DocumentReview.js';

/*
 * A fake socket: the realtime hooks are replaced. The room's state is what
 * the test sets, emits are recorded, and server events are delivered by hand.
 */
const fake = vi.hoisted(() => ({
  room: { joined: true, users: [], shown: null } as RoomState,
  joinedRooms: [] as (Room | null)[],
  emit: null as unknown as ReturnType<typeof vi.fn>,
  handlers: new Map<string, (payload: unknown) => void>(),
}));

vi.mock('../../lib/realtime.js', () => ({
  useRoom: (room: Room | null) => {
    fake.joinedRooms.push(room);
    return fake.room;
  },
  useRoomEmit: () => fake.emit,
  useRealtimeEvent: (event: string, handler: (payload: unknown) => void) => {
    fake.handlers.set(event, handler);
  },
}));
vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

const form: FormDefinition = {
  fields: [
    { name: 'lease', type: 'file', label: 'Contrato', label_en: 'Lease' },
    {
      name: 'incomes',
      type: 'repeat',
      label: 'Ingresos',
      label_en: 'Incomes',
      children: [
        { name: 'employer', type: 'text', label: 'Empleador', label_en: 'Employer' },
        { name: 'stub', type: 'file', label: 'Desprendible', label_en: 'Check stub' },
      ],
    },
  ],
} as FormDefinition;

const data = {
  lease: { id: 'f-lease', name: 'lease.pdf' },
  incomes: [
    { employer: 'ACME', stub: [{ id: 'f-stub1', name: 'stub-may.png' }] },
    { employer: 'Initech', stub: [{ id: 'f-stub2', name: 'stub-june.jpg' }] },
  ],
};

const checklist = {
  items: [
    { code: 'LEASE', name: 'Lease', mark: null, commentNumber: null, fileId: null, byName: null, at: null },
    { code: 'STUBS', name: 'Check stubs', mark: 'missing', commentNumber: 1, fileId: null, byName: 'Demo Coordinator', at: '2026-11-20T15:00:00.000Z' },
  ],
};

const me = { id: Number(sessionFixture.user.uid), name: sessionFixture.user.name };
const reviewer = { id: 7, name: 'Rita Reviewer' };

let fetchMock: ReturnType<typeof mockFetch>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  fake.room = { joined: true, users: [me, reviewer], shown: null };
  fake.joinedRooms = [];
  fake.emit = vi.fn(async (): Promise<Ack> => ({ ok: true }));
  fake.handlers.clear();
  fetchMock = mockFetch((url) => {
    if (url === '/api/cases/42/checklist') return jsonResponse(checklist);
    const link = /^\/api\/files\/([^/]+)\/link$/.exec(url);
    if (link) return jsonResponse({ url: `/archivos/demo/${link[1]}.bin?exp=1&token=t-${link[1]}`, expiresAt: '2026-11-24T12:00:00.000Z' });
    return jsonResponse({ error: { code: 'ROUTE_NOT_FOUND', message: 'Not found' } }, 404);
  });
});

afterEach(() => {
  act(() => clearToasts());
  vi.unstubAllGlobals();
});

function renderReview() {
  const client = createQueryClient();
  const view = render(
    <QueryClientProvider client={client}>
      <SessionContext value={sessionFixture}>
        <FeedbackProvider>
          <DocumentReview caseId={42} form={form} data={data} />
        </FeedbackProvider>
      </SessionContext>
    </QueryClientProvider>,
  );
  return { ...view, client };
}

const join = () => fireEvent.click(screen.getByRole('button', { name: 'Join review' }));
const documentList = () => screen.getByRole('list', { name: 'Documents of the case' });

describe('caseFiles', () => {
  test('lists every file of the data once, repeat rows with their group and row, and files the form no longer names', () => {
    const files = caseFiles(form, { ...data, old: { id: 'f-old', name: 'old.txt' }, again: data.lease }, { language: 'en', row: (r) => `Row ${r}`, other: 'Other' });
    expect(files).toEqual([
      { id: 'f-lease', name: 'lease.pdf', place: 'Lease' },
      { id: 'f-stub1', name: 'stub-may.png', place: 'Incomes › Row 1 › Check stub' },
      { id: 'f-stub2', name: 'stub-june.jpg', place: 'Incomes › Row 2 › Check stub' },
      { id: 'f-old', name: 'old.txt', place: 'Other' },
    ]);
  });
});

describe('DocumentReview', () => {
  test('a visitor is not in the room until they join; joining shows who is there and every document of the case', async () => {
    renderReview();
    expect(screen.queryByRole('list', { name: 'Documents of the case' })).not.toBeInTheDocument();
    expect(fake.joinedRooms).toEqual([]);
    join();
    expect(fake.joinedRooms.at(-1)).toEqual({ kind: 'review', id: 42 });
    expect(screen.getByText('Also here: Rita Reviewer')).toBeInTheDocument();
    const items = within(documentList()).getAllByRole('listitem');
    expect(items.map((li) => within(li).getByText(/\.(pdf|png|jpg)$/).textContent)).toEqual(['lease.pdf', 'stub-may.png', 'stub-june.jpg']);
    expect(within(items[1] as HTMLElement).getByText('Incomes › Row 1 › Check stub')).toBeInTheDocument();
    expect(screen.getByText(/No document is being shown/)).toBeInTheDocument();
  });

  test('clicking Show emits show_doc with the case and the file', async () => {
    renderReview();
    join();
    fireEvent.click(screen.getByRole('button', { name: 'Show stub-june.jpg to everyone' }));
    await waitFor(() => expect(fake.emit).toHaveBeenCalledWith('show_doc', { caseId: 42, fileId: 'f-stub2' }));
  });

  test('a document shown by someone (the join answer) opens in the viewer through its short-lived link', async () => {
    fake.room = { joined: true, users: [me, reviewer], shown: { fileId: 'f-stub1', by: reviewer } };
    renderReview();
    join();
    const viewer = screen.getByTestId('review-viewer');
    expect(within(viewer).getByText('Shown by Rita Reviewer')).toBeInTheDocument();
    const image = await within(viewer).findByRole('img', { name: 'stub-may.png' });
    expect(image).toHaveAttribute('src', '/archivos/demo/f-stub1.bin?exp=1&token=t-f-stub1&inline=1');
    expect(fetchMock.mock.calls.map(([url]) => url)).toContain('/api/files/f-stub1/link');
    // Only the one who shows may stop it.
    expect(within(viewer).queryByRole('button', { name: 'Stop showing' })).not.toBeInTheDocument();
  });

  test('the one who shows a PDF sees it in a frame, Open (through a fresh link) and Stop showing, which emits cancel_show_doc', async () => {
    fake.room = { joined: true, users: [me, reviewer], shown: { fileId: 'f-lease', by: me } };
    renderReview();
    join();
    const viewer = screen.getByTestId('review-viewer');
    expect(within(viewer).getByText('You are showing this document to everyone.')).toBeInTheDocument();
    expect(await within(viewer).findByTitle('lease.pdf')).toHaveAttribute('src', '/archivos/demo/f-lease.bin?exp=1&token=t-f-lease&inline=1');
    fireEvent.click(within(viewer).getByRole('button', { name: 'Open lease.pdf' }));
    await waitFor(() => expect(goTo).toHaveBeenCalledWith('/archivos/demo/f-lease.bin?exp=1&token=t-f-lease'));
    fireEvent.click(within(viewer).getByRole('button', { name: 'Stop showing' }));
    await waitFor(() => expect(fake.emit).toHaveBeenCalledWith('cancel_show_doc', { caseId: 42 }));
  });

  test('Accept emits accept_doc with the chosen checklist document and the file, and says so', async () => {
    renderReview();
    join();
    const item = within(documentList()).getAllByRole('listitem')[1] as HTMLElement;
    const accept = within(item).getByRole('button', { name: 'Accept stub-may.png' });
    expect(accept).toBeDisabled();
    const select = within(item).getByLabelText('Checklist document');
    await waitFor(() => expect(within(select).getByRole('option', { name: 'Check stubs' })).toBeInTheDocument());
    fireEvent.change(select, { target: { value: 'STUBS' } });
    fireEvent.click(accept);
    await waitFor(() => expect(fake.emit).toHaveBeenCalledWith('accept_doc', { caseId: 42, code: 'STUBS', fileId: 'f-stub1' }));
    expect(await screen.findByText('Check stubs accepted.')).toBeInTheDocument();
  });

  test('a refused event shows why', async () => {
    fake.emit = vi.fn(async (): Promise<Ack> => ({ ok: false, code: 'NOT_FOUND' }));
    renderReview();
    join();
    fireEvent.click(screen.getByRole('button', { name: 'Show lease.pdf to everyone' }));
    expect(await screen.findByText('That document is no longer part of this case.')).toBeInTheDocument();
  });

  test("someone else's accept_doc refetches the checklist and says who accepted what; refresh_page and available_docs reload the case", async () => {
    const { client } = renderReview();
    join();
    // The checklist has loaded: its names are the documents' names.
    expect(await screen.findAllByRole('option', { name: 'Lease' })).toHaveLength(3);
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    act(() => fake.handlers.get('accept_doc')?.({ caseId: 42, code: 'LEASE', fileId: 'f-lease', by: reviewer }));
    expect(await screen.findByText('Rita Reviewer accepted Lease')).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.filter(([url]) => url === '/api/cases/42/checklist')).toHaveLength(2));
    // Another case's event is not ours.
    act(() => fake.handlers.get('refresh_page')?.({ caseId: 43, by: reviewer }));
    expect(invalidate).not.toHaveBeenCalledWith({ queryKey: caseKeys.detail(42) });
    act(() => fake.handlers.get('refresh_page')?.({ caseId: 42, by: reviewer }));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: caseKeys.detail(42) });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: commentKeys.checklist(42) });
    invalidate.mockClear();
    act(() => fake.handlers.get('available_docs')?.({ caseId: 42 }));
    expect(invalidate).toHaveBeenCalledWith({ queryKey: caseKeys.detail(42) });
  });

  test("Refresh everyone's page emits refresh_page for the case", async () => {
    renderReview();
    join();
    fireEvent.click(screen.getByRole('button', { name: "Refresh everyone's page" }));
    await waitFor(() => expect(fake.emit).toHaveBeenCalledWith('refresh_page', { caseId: 42 }));
  });
});
