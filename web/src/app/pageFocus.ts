import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

/** How long a new page may take to show its heading (lazy code, then data). */
const WAIT_MS = 10_000;

/** The page's main heading: the h1 in <main> (every layout has one), else any h1. */
function pageHeading(): HTMLElement | null {
  return document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
}

/** Focus is nowhere a person put it: on the body, on <main> itself, or on an element that left the page. */
function focusIsLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement || active.tagName === 'MAIN' || !active.isConnected;
}

/** Focus is on what led here from outside the page (the menu, the top bar), not in the page or a dialog. */
function focusIsOutsidePage(): boolean {
  const active = document.activeElement;
  if (!active || focusIsLost()) return true;
  if (active.closest('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]')) return false;
  const main = document.querySelector('main');
  return !!main && !main.contains(active);
}

function focusHeading(heading: HTMLElement) {
  // Focusable by script only: Tab never stops on it.
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus();
}

/**
 * Keyboard and screen-reader users learn where they are: after a navigation
 * (another address: a menu link, a new application, a submit that changes
 * the address), and when the element that held the focus leaves the page (a
 * button that a decision removes, like Accept), focus moves to the page's h1
 * once it shows. It stays where it is when the page put it somewhere itself
 * (a field, a dialog) or when the person moves on first (a key, a click).
 * The first page of a visit keeps the browser's own start.
 */
export function usePageHeadingFocus(): void {
  const location = useLocation();
  const firstKey = useRef(location.key);
  const wanted = useRef<{ until: number; fromOutside: boolean } | null>(null);
  const timer = useRef<number | undefined>(undefined);
  const requestRef = useRef<((fromOutside: boolean) => void) | null>(null);

  useEffect(() => {
    const settle = () => {
      const want = wanted.current;
      if (!want) return;
      if (Date.now() > want.until) {
        wanted.current = null;
        return;
      }
      const heading = pageHeading();
      if (heading && (focusIsLost() || (want.fromOutside && focusIsOutsidePage()))) {
        wanted.current = null;
        focusHeading(heading);
        return;
      }
      if (!focusIsLost() && !(want.fromOutside && focusIsOutsidePage())) {
        // The page put the focus somewhere itself.
        wanted.current = null;
        return;
      }
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(settle, 50);
    };
    const request = (fromOutside: boolean) => {
      wanted.current = { until: Date.now() + WAIT_MS, fromOutside };
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(settle, 0);
    };
    const moveOn = () => {
      wanted.current = null;
    };

    // The element holding the focus left the page (React removed it): the focus fell to the body.
    let focused: Element | null = null;
    const onFocusIn = (event: FocusEvent) => {
      focused = event.target instanceof Element ? event.target : null;
    };
    const observer = new MutationObserver(() => {
      if (focused && !focused.isConnected && focusIsLost() && !wanted.current) {
        focused = null;
        request(false);
      }
    });
    observer.observe(document.body, { childList: true, subtree: true });
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('keydown', moveOn, true);
    document.addEventListener('pointerdown', moveOn, true);
    requestRef.current = request;
    return () => {
      observer.disconnect();
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('keydown', moveOn, true);
      document.removeEventListener('pointerdown', moveOn, true);
      window.clearTimeout(timer.current);
      requestRef.current = null;
    };
  }, []);

  useEffect(() => {
    if (location.key === firstKey.current) return;
    requestRef.current?.(true);
  }, [location.key]);
}
