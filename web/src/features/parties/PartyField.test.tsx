// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import type { FieldDef } from '../../../../core/forms/definition.js';
import { jsonResponse, mockFetch } from '../../test/utils.js';
import { FieldEditor } from '../forms/builder/FieldEditor.js';
import { createNode } from '../forms/builder/FieldsTab.js';
import { FormRenderer } from '../forms/renderer/FormRenderer.js';
import { renderWithProviders } from '../forms/test/renderForm.js';

describe('the "party" field', () => {
  test('the builder fixes its role or leaves it to the person; the renderer asks for role, name, email and phone, checked as the server checks them', async () => {
    mockFetch(() => jsonResponse({ items: [] }));
    // Builder: the role is a choice among the roles, or "chosen by the person".
    const node = createNode('party', new Set());
    const onChange = vi.fn();
    const editor = renderWithProviders(<FieldEditor node={node} nodes={[node]} problems={[]} onChange={onChange} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Party role' }));
    const options = within(await screen.findByRole('listbox')).getAllByRole('option').map((o) => o.textContent);
    expect(options).toEqual(['Chosen by the person filling the form', 'Landlord', 'Property manager', 'Utility', 'Co-signer', 'Third party']);
    fireEvent.click(screen.getByRole('option', { name: 'Chosen by the person filling the form' }));
    expect(onChange).toHaveBeenCalled();
    editor.unmount();

    // Renderer, role left to the person.
    const field: FieldDef = { name: 'otherParty', type: 'party', label: 'Otra parte', label_en: 'Other party', required: true };
    const onSubmit = vi.fn();
    renderWithProviders(<FormRenderer definition={{ fields: [field] }} onSubmit={onSubmit} />);
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Role' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Utility' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: ' City Power ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByRole('textbox', { name: 'Email' }), { target: { value: 'billing@citypower.example' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalled());
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ otherParty: { role: 'utility', name: 'City Power', email: 'billing@citypower.example', phone: null } });
  });
});
