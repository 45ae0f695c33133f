// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import { RouteErrorPage } from '../app/RouteErrorPage.js';
import i18n from '../i18n/index.js';
import { reloadPage } from '../lib/browser.js';
import '../test/utils.js';
import { AppErrorBoundary } from './AppErrorBoundary.js';

vi.mock('../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

/** The loader fails before any render; nothing to show meanwhile. */
function NoFallback() {
  return null;
}

function Broken(): never {
  throw new Error('Cannot read the case list');
}

describe('error boundaries', () => {
  beforeEach(() => {
    // React reports caught render errors on the console; the test asserts on the screen instead.
    vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(reloadPage).mockClear();
  });

  test('the top-level boundary shows the reload advice, the error and a Reload button', () => {
    render(
      <AppErrorBoundary>
        <Broken />
      </AppErrorBoundary>,
    );
    expect(screen.getByRole('heading', { name: 'Please reload the page' })).toBeInTheDocument();
    expect(screen.getByText('Cannot read the case list')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reloadPage).toHaveBeenCalledTimes(1);
  });

  test("the router's errorElement shows the same, in Spanish when chosen", async () => {
    await i18n.changeLanguage('es');
    const router = createMemoryRouter([{ path: '/', element: <Broken />, errorElement: <RouteErrorPage /> }]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByRole('heading', { name: 'Por favor recargue la página' })).toBeInTheDocument();
    expect(screen.getByText('Cannot read the case list')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Recargar' })).toBeInTheDocument();
  });

  test('a route error response shows its status', async () => {
    const router = createMemoryRouter([
      {
        path: '/',
        loader: () => {
          throw new Response(null, { status: 503, statusText: 'Service Unavailable' });
        },
        element: <p>never</p>,
        errorElement: <RouteErrorPage />,
        HydrateFallback: NoFallback,
      },
    ]);
    render(<RouterProvider router={router} />);
    expect(await screen.findByText('503 Service Unavailable')).toBeInTheDocument();
  });
});
