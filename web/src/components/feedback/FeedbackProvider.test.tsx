// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import i18n from '../../i18n/index.js';
import '../../test/utils.js';
import { type Dialogs, FeedbackProvider, useDialogs } from './FeedbackProvider.js';
import { showToast } from './toastStore.js';

const captured: { dialogs: Dialogs | null } = { dialogs: null };

function Capture() {
  captured.dialogs = useDialogs();
  return null;
}

/** Renders the provider and hands back its dialogs API, as a page would use it. */
function renderDialogs(): Dialogs {
  captured.dialogs = null;
  render(
    <FeedbackProvider>
      <Capture />
    </FeedbackProvider>,
  );
  if (!captured.dialogs) throw new Error('useDialogs did not render');
  return captured.dialogs;
}

describe('ConfirmDialog through useDialogs().confirm', () => {
  test('resolves true on Confirm', async () => {
    const dialogs = renderDialogs();
    let answer: Promise<boolean> = Promise.resolve(false);
    act(() => {
      answer = dialogs.confirm({ message: 'Close the application?' });
    });
    expect(await screen.findByRole('dialog', { name: 'Are you sure?' })).toHaveTextContent('Close the application?');
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  test('resolves false on Cancel, which holds the focus', async () => {
    const dialogs = renderDialogs();
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = dialogs.confirm({ title: 'Delete', message: 'Delete this form?', confirmText: 'Delete it' });
    });
    const cancel = await screen.findByRole('button', { name: 'Cancel' });
    expect(screen.getByRole('button', { name: 'Delete it' })).toBeInTheDocument();
    await waitFor(() => expect(cancel).toHaveFocus());
    fireEvent.click(cancel);
    await expect(answer).resolves.toBe(false);
  });

  test('Escape answers no', async () => {
    const dialogs = renderDialogs();
    let answer: Promise<boolean> = Promise.resolve(true);
    act(() => {
      answer = dialogs.confirm({ message: 'Complete the application?' });
    });
    fireEvent.keyDown(await screen.findByRole('dialog'), { key: 'Escape' });
    await expect(answer).resolves.toBe(false);
  });
});

describe('message dialogs', () => {
  test('the error dialog shows the spec titles and the given message', async () => {
    const dialogs = renderDialogs();
    let closed: Promise<void> = Promise.resolve();
    act(() => {
      closed = dialogs.error('Upload failed');
    });
    const dialog = await screen.findByRole('dialog', { name: 'Error' });
    expect(dialog).toHaveTextContent('Something went wrong');
    expect(dialog).toHaveTextContent('Upload failed');
    expect(dialog).toHaveTextContent('Reload the page, if the error persists please contact systems.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await expect(closed).resolves.toBeUndefined();
  });

  test('the success dialog has a default text, in Spanish too', async () => {
    await i18n.changeLanguage('es');
    const dialogs = renderDialogs();
    act(() => {
      void dialogs.success();
    });
    expect(await screen.findByRole('dialog', { name: 'Éxito' })).toHaveTextContent('Operación exitosa.');
  });

  test('dialogs queue: the warning waits until the first dialog is closed', async () => {
    const dialogs = renderDialogs();
    act(() => {
      void dialogs.success('Saved');
      void dialogs.warning('Entries typed but not added');
    });
    expect(await screen.findByRole('dialog', { name: 'Success' })).toHaveTextContent('Saved');
    expect(screen.queryByText('Entries typed but not added')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(await screen.findByRole('dialog', { name: 'Warning' })).toHaveTextContent('Entries typed but not added');
  });

  test('the loading dialog shows Loading... or a custom text until hidden', async () => {
    const dialogs = renderDialogs();
    act(() => dialogs.showLoading());
    expect(await screen.findByRole('dialog')).toHaveTextContent('Loading...');
    act(() => dialogs.showLoading('Importing cases...'));
    expect(await screen.findByText('Importing cases...')).toBeInTheDocument();
    act(() => dialogs.hideLoading());
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('toasts', () => {
  test('a toast shows its message in an alert and closes', async () => {
    renderDialogs();
    act(() => showToast('Error uploading file.'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error uploading file.');
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });
});
