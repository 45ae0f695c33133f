// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import TemplateBodyEditor from './TemplateBodyEditor.js';

beforeAll(async () => {
  await i18n.changeLanguage('en');
  // ProseMirror scrolls the cursor into view through Range rectangles, which jsdom does not lay out.
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) } as DOMRect;
  Range.prototype.getClientRects ??= () => Object.assign([rect], { item: () => rect }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect ??= () => rect;
});

describe('TemplateBodyEditor (the real mui-tiptap editor)', () => {
  test('shows the stored HTML, and the placeholder picker inserts {{name}} into the body', async () => {
    const onChange = vi.fn();
    render(<TemplateBodyEditor initialHtml="<p>Hello <strong>there</strong></p>" onChange={onChange} label="Message in English" />);
    await waitFor(() => expect(document.querySelector('.ProseMirror')).not.toBeNull());
    expect(document.querySelector('.ProseMirror strong')).toHaveTextContent('there');
    expect(screen.getByRole('button', { name: 'Bold' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Insert placeholder' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Case number/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.lastCall?.[0]).toContain('{{caseNumber}}');
    expect(onChange.mock.lastCall?.[0]).toContain('<strong>there</strong>');
  });

  test('keeps a link whose address is a placeholder, and drops a javascript: link', async () => {
    const onChange = vi.fn();
    render(<TemplateBodyEditor initialHtml='<p><a href="{{recordLink}}">Open</a> <a href="javascript:alert(1)">bad</a></p>' onChange={onChange} label="Message in English" />);
    await waitFor(() => expect(document.querySelector('.ProseMirror')).not.toBeNull());
    expect(document.querySelector('.ProseMirror a')).toHaveAttribute('href', '{{recordLink}}');
    expect(document.querySelector('.ProseMirror a[href^="javascript"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Insert placeholder' }));
    fireEvent.click(await screen.findByRole('menuitem', { name: /Support phone/ }));
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(onChange.mock.lastCall?.[0]).toContain('href="{{recordLink}}"');
    expect(onChange.mock.lastCall?.[0]).toContain('{{supportPhone}}');
  });
});
