/**
 * Page navigations that leave the single-page app. Kept in one module so that
 * tests can replace them: jsdom cannot reload or navigate.
 */
export function reloadPage(): void {
  window.location.reload();
}

export function goTo(url: string): void {
  window.location.assign(url);
}
