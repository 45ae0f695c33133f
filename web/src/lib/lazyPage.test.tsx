// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { AppErrorBoundary } from '../components/AppErrorBoundary.js';
import '../test/utils.js';
import { lazyPage } from './lazyPage.js';
import { reloadForNewVersion } from './reload.js';

vi.mock('./reload.js', () => ({ reloadForNewVersion: vi.fn() }));

const chunkError = () =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Cases-1a2b.js'));

function renderLazy(Page: ReturnType<typeof lazyPage>) {
  return render(
    <AppErrorBoundary>
      <Suspense fallback={<p>waiting</p>}>
        <Page />
      </Suspense>
    </AppErrorBoundary>,
  );
}

describe('lazyPage', () => {
  beforeEach(() => {
    vi.mocked(reloadForNewVersion).mockReset();
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  test('renders the page once its chunk loads', async () => {
    const Page = lazyPage(async () => ({ default: () => <h1>Cases</h1> }));
    renderLazy(Page);
    expect(await screen.findByRole('heading', { name: 'Cases' })).toBeInTheDocument();
    expect(reloadForNewVersion).not.toHaveBeenCalled();
  });

  test('a chunk that fails to load reloads the page and keeps waiting', async () => {
    vi.mocked(reloadForNewVersion).mockReturnValue(true);
    renderLazy(lazyPage(chunkError));
    await vi.waitFor(() => expect(reloadForNewVersion).toHaveBeenCalledTimes(1));
    expect(screen.getByText('waiting')).toBeInTheDocument();
  });

  test('when the guard refuses, the error reaches the error boundary', async () => {
    vi.mocked(reloadForNewVersion).mockReturnValue(false);
    renderLazy(lazyPage(chunkError));
    expect(await screen.findByText('Please reload the page')).toBeInTheDocument();
    expect(screen.getByText(/Failed to fetch dynamically imported module/)).toBeInTheDocument();
  });
});
