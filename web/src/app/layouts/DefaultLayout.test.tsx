// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { goTo } from '../../lib/browser.js';
import { mockSettingsFetch, renderApp, setScreenWidth, testVersion } from '../../test/utils.js';

vi.mock('../../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

async function renderHome(width: number) {
  setScreenWidth(width);
  mockSettingsFetch();
  const view = renderApp('/home');
  await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' });
  return view;
}

describe('DefaultLayout footer', () => {
  test.each([
    [390, 'xs'],
    [600, 'sm'],
    [959, 'sm'],
    [960, 'md'],
    [1264, 'lg'],
    [1903, 'lg'],
    [1904, 'xl'],
  ])('at %i px the size class is %s', async (width, sizeClass) => {
    await renderHome(width);
    expect(screen.getByTestId('size-class')).toHaveTextContent(new RegExp(`^${sizeClass}$`));
  });

  test('shows the current page name and the front version', async () => {
    await renderHome(1280);
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByText('Home')).toBeInTheDocument();
    expect(screen.getByTestId('front-version')).toHaveTextContent(`v${testVersion()}`);
  });
});

describe('DefaultLayout frame', () => {
  beforeEach(() => vi.mocked(goTo).mockClear());
  afterEach(() => vi.restoreAllMocks());

  test('has the landmarks, the project title and the support phone', async () => {
    await renderHome(1280);
    expect(screen.getByRole('banner')).toHaveTextContent('Demo Housing Agency');
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    expect(screen.getByRole('main')).toBeInTheDocument();
    const support = screen.getByRole('link', { name: 'Have Questions?' });
    expect(support).toHaveAttribute('href', 'tel:+15550100100');
    // MUI opens tooltips on keyboard focus, known by :focus-visible, which jsdom lacks.
    const matches = Element.prototype.matches;
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
      return selector === ':focus-visible' ? this === document.activeElement : matches.call(this, selector);
    });
    support.focus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Call us at +1 (555) 010-0100');
  });

  test('on wide screens the hamburger collapses and reopens the docked menu', async () => {
    await renderHome(1280);
    const toggle = screen.getByRole('button', { name: 'Open or close the menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
    fireEvent.click(toggle);
    expect(screen.getByRole('navigation', { name: 'Main menu' })).toBeVisible();
  });

  test('on phones the menu is closed until the hamburger opens it', async () => {
    await renderHome(390);
    expect(screen.queryByRole('navigation', { name: 'Main menu' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Open or close the menu' }));
    const drawer = await screen.findByRole('dialog', { name: 'Main menu' });
    expect(within(drawer).getByRole('navigation', { name: 'Main menu' })).toBeInTheDocument();
    fireEvent.keyDown(drawer, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  // Exit used to restart the app (goTo('/')) while sign-in did not exist; it now ends the session on the server.
  test('the user menu names the user and Exit leaves through the session', async () => {
    setScreenWidth(1280);
    const fetchMock = mockSettingsFetch();
    const { router } = renderApp('/home');
    await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' });
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    const menu = await screen.findByRole('menu');
    expect(menu).toHaveTextContent('Demo Coordinator');
    fireEvent.click(within(menu).getByRole('menuitem', { name: 'Exit' }));
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/logout', expect.objectContaining({ method: 'POST' }));
    // Leaving on purpose: no page to come back to.
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
    expect(goTo).not.toHaveBeenCalled();
  });

  test('the user menu links to the profile', async () => {
    const { router } = await renderHome(1280);
    fireEvent.click(screen.getByRole('button', { name: 'Account' }));
    fireEvent.click(within(await screen.findByRole('menu')).getByRole('menuitem', { name: 'Profile' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  test('the top-bar language switch translates the shell and remembers the choice', async () => {
    await renderHome(1280);
    const banner = screen.getByRole('banner');
    fireEvent.click(within(banner).getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Bienvenido, Demo Coordinator' })).toBeInTheDocument();
    expect(within(screen.getByRole('contentinfo')).getByText('Inicio')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '¿Tiene preguntas?' })).toBeInTheDocument();
    expect(localStorage.getItem('i18nextLng')).toBe('es');
    expect(document.cookie).toContain('lang=es');
    expect(document.documentElement.lang).toBe('es');
    expect(i18n.language).toBe('es');
  });

  test('/ redirects to /home', async () => {
    mockSettingsFetch();
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/home'));
  });
});
