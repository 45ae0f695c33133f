import type { Locator, Page } from 'playwright-core';

/**
 * Keyboard-only journeys: focus moves by Tab and Shift+Tab as a person's
 * would, and every stop acted on must show where the focus is (WCAG 2.4.7).
 */

/** The focused element (through open shadow roots, should a widget have one) in a few words, for failure messages. */
function describeFocus(): string {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return '(body)';
  const role = el.getAttribute('role');
  const text = (el.getAttribute('aria-label') ?? el.getAttribute('name') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return `${el.tagName.toLowerCase()}${role ? `[${role}]` : ''} "${text}"`;
}

/**
 * Presses `key` (Tab, or Shift+Tab to go back) until `target` holds the
 * focus (it, or something inside it); fails with where the focus went on
 * the way. No press when it already has it.
 */
export async function tabTo(page: Page, target: Locator, max = 60, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  await target.waitFor();
  const seen: string[] = [];
  for (let presses = 0; ; presses++) {
    const arrived = await target.evaluate((el) => {
      let active = document.activeElement;
      if (active && (el === active || el.contains(active))) return true;
      while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
      return !!active && (el === active || el.contains(active));
    });
    if (arrived) return;
    if (presses === max) break;
    await page.keyboard.press(key);
    seen.push(await page.evaluate(describeFocus));
  }
  throw new Error(`${max} × ${key} never reached ${target}; the focus went to: ${seen.join(' → ')}`);
}

/**
 * The focus shows: the focused element, or a near ancestor, carries the
 * class MUI draws focus by (Mui-focusVisible: the focus ripple of buttons
 * and checkboxes, a link's outline, a menu item's shade; Mui-focused: the
 * thicker frame of a text field or select); or, for what MUI does not
 * style (the captcha's checkbox, a plain link), the element itself draws a
 * ring while it matches :focus-visible: an outline, or a box shadow, and is
 * not transparent (a checkbox's hidden native input has an outline nobody
 * sees). MUI sets its classes a render after the focus event, hence the
 * short wait.
 */
export async function expectVisibleFocus(page: Page, timeoutMs = 2_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const shown = await page.evaluate(() => {
      let el = document.activeElement;
      while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
      if (!el || el === document.body || el === document.documentElement) return false;
      let near: Element | null = el;
      for (let depth = 0; near && depth <= 3; depth++, near = near.parentElement) {
        if (near.matches('.Mui-focusVisible, .Mui-focused')) return true;
      }
      const style = getComputedStyle(el);
      const seen = Number.parseFloat(style.opacity) > 0 && style.visibility === 'visible';
      const ring = (style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0) || style.boxShadow !== 'none';
      return seen && ring && el.matches(':focus-visible');
    });
    if (shown) return;
    if (Date.now() > end) throw new Error(`the focus does not show on ${await page.evaluate(describeFocus)}`);
    await page.waitForTimeout(50);
  }
}

/** Reaches `target` by keyboard and checks that its focus shows: the stop before acting on it. */
export async function reach(page: Page, target: Locator, max = 60, key: 'Tab' | 'Shift+Tab' = 'Tab'): Promise<void> {
  await tabTo(page, target, max, key);
  await expectVisibleFocus(page);
}

/**
 * In an open list (an autocomplete's options or a select's menu), moves
 * with ArrowDown to the option named `name` and takes it with Enter.
 */
export async function pickOption(page: Page, name: string, max = 40): Promise<void> {
  const option = page.getByRole('option', { name, exact: true });
  await option.waitFor();
  for (let presses = 0; ; presses++) {
    const current = await option.evaluate((el) => el === document.activeElement || el.matches('.Mui-focused, .Mui-focusVisible'));
    if (current) break;
    if (presses === max) throw new Error(`${max} × ArrowDown never reached the option ${name}`);
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await option.waitFor({ state: 'detached' });
}
