// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { setLanguage } from '../../i18n/index.js';
import { mockSettingsFetch, renderApp } from '../../test/utils.js';

describe('NotFoundPage', () => {
  test('an unknown path shows the 404 texts in English, in the public layout', async () => {
    mockSettingsFetch();
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('This page could not be found')).toBeInTheDocument();
    // Public layout: a footer with the language switch and version, no side menu.
    expect(screen.getByRole('contentinfo')).toContainElement(screen.getByTestId('front-version'));
    expect(screen.queryByRole('navigation')).not.toBeInTheDocument();
  });

  test('/404 shows the texts in Spanish', async () => {
    await setLanguage('es');
    mockSettingsFetch();
    renderApp('/404');
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
    expect(screen.getByText('No se pudo encontrar esta página')).toBeInTheDocument();
  });

  test('the footer switch changes the language in place', async () => {
    mockSettingsFetch();
    renderApp('/404');
    await screen.findByRole('heading', { name: 'Page not found' });
    fireEvent.click(screen.getByRole('button', { name: 'Español' }));
    expect(await screen.findByRole('heading', { name: 'Página no encontrada' })).toBeInTheDocument();
    expect(document.documentElement.lang).toBe('es');
  });

  test('the button goes back home', async () => {
    mockSettingsFetch();
    const { router } = renderApp('/404');
    fireEvent.click(await screen.findByRole('link', { name: 'Go to home' }));
    expect(router.state.location.pathname).toBe('/home');
    expect(await screen.findByRole('heading', { name: 'Welcome, Demo Coordinator' })).toBeInTheDocument();
  });
});
