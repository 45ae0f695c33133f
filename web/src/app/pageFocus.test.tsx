// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { mockSettingsFetch, renderApp } from '../test/utils.js';

vi.mock('../lib/browser.js', () => ({ reloadPage: vi.fn(), goTo: vi.fn() }));

/** An element of the page that holds the focus, as a field or a button would. */
function focusedInMain(tag: 'input' | 'button'): HTMLElement {
  const element = document.createElement(tag);
  document.querySelector('main')?.appendChild(element);
  element.focus();
  return element;
}

describe('focus after a page change', () => {
  test('the first page keeps the browser’s start; a link to another page puts the focus on its h1, which Tab skips', async () => {
    mockSettingsFetch();
    const { router } = renderApp('/home');
    const home = await screen.findByRole('heading', { level: 1, name: 'Welcome, Demo Coordinator' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(home).not.toHaveFocus();

    // A link of the menu: the focus was outside the page.
    fireEvent.click(screen.getByRole('link', { name: 'Applications' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/cases'));
    const title = await screen.findByRole('heading', { level: 1, name: 'Applications' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(title).toHaveAttribute('tabindex', '-1');

    await act(() => router.navigate('/404'));
    const notFound = await screen.findByRole('heading', { level: 1 });
    await waitFor(() => expect(notFound).toHaveFocus());
  });

  test('a change of the address while a field of the page has the focus (a filter) leaves it there', async () => {
    mockSettingsFetch();
    const { router } = renderApp('/home');
    await screen.findByRole('heading', { level: 1, name: 'Welcome, Demo Coordinator' });
    const field = focusedInMain('input');
    await act(() => router.navigate('/home?search=Ortega'));
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(field).toHaveFocus();
  });

  test('when the element that held the focus leaves the page (a decision removed its button), the focus goes to the h1', async () => {
    mockSettingsFetch();
    renderApp('/home');
    const home = await screen.findByRole('heading', { level: 1, name: 'Welcome, Demo Coordinator' });
    const button = focusedInMain('button');
    button.remove();
    await waitFor(() => expect(home).toHaveFocus());
  });
});
