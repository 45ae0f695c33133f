// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { createRef } from 'react';
import { describe, expect, test, vi } from 'vitest';
import type { FieldDef } from '../../../../../core/forms/definition.js';
import i18n from '../../../i18n/index.js';
import { jsonResponse, mockFetch } from '../../../test/utils.js';
import { renderWithProviders } from '../test/renderForm.js';
import { FormRenderer, type FormRendererHandle, type FormRendererProps } from './FormRenderer.js';

const f = (name: string, type: FieldDef['type'], label_en: string, label: string, extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label, label_en, ...extra });

function renderForm(props: Partial<FormRendererProps> & Pick<FormRendererProps, 'definition'>) {
  const onSubmit = vi.fn();
  const utils = renderWithProviders(<FormRenderer onSubmit={onSubmit} {...props} />);
  return { onSubmit, ...utils };
}

const type = (label: RegExp, value: string) => {
  const input = screen.getByRole('textbox', { name: label });
  fireEvent.change(input, { target: { value } });
  fireEvent.blur(input);
};
const save = () => fireEvent.click(screen.getByRole('button', { name: 'Save' }));
const helperOf = (label: RegExp) => {
  const input = screen.getByRole('textbox', { name: label });
  const id = input.getAttribute('aria-describedby');
  return id ? document.getElementById(id)?.textContent : null;
};

describe('messages of the shared validator, in English and Spanish', () => {
  const definition = {
    fields: [
      f('fullName', 'text', 'Full name', 'Nombre completo', { required: true }),
      f('email', 'email', 'Email', 'Correo electrónico'),
      f('phone', 'phone', 'Cellphone', 'Celular'),
      f('age', 'number', 'Age', 'Edad', { min: 18, max: 120 }),
      f('rent', 'currency', 'Rent', 'Renta', { min: 1 }),
      f('lease', 'file', 'Lease', 'Contrato', { accept: ['pdf'] }),
    ],
  };

  test('under each field, on blur and on submit, and again in Spanish when the language changes', async () => {
    const { onSubmit } = renderForm({ definition });
    // On blur: one field at a time.
    type(/^Email/, 'not-an-email');
    expect(await screen.findByText('Invalid email address')).toBeInTheDocument();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();

    type(/^Cellphone/, '300 123 45');
    type(/^Age/, '130');
    type(/^Rent/, '0');
    const chooser = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!chooser) throw new Error('no file input');
    fireEvent.change(chooser, { target: { files: [new File(['MZ'], 'setup.exe')] } });
    save();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(helperOf(/^Full name/)).toBe('This field is required');
    expect(helperOf(/^Email/)).toBe('Invalid email address');
    expect(helperOf(/^Cellphone/)).toBe('Invalid phone number');
    expect(helperOf(/^Age/)).toBe('The number must be at most 120');
    expect(helperOf(/^Rent/)).toBe('The number must be at least 1');
    expect(screen.getByText('The file does not have a valid extension')).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();

    await act(async () => {
      await i18n.loadLanguages('es');
      await i18n.changeLanguage('es');
    });
    await waitFor(() => expect(helperOf(/^Nombre completo/)).toBe('Este campo es obligatorio'));
    expect(helperOf(/^Correo electrónico/)).toBe('Correo electrónico no válido');
    expect(helperOf(/^Celular/)).toBe('Número de teléfono no válido');
    expect(helperOf(/^Edad/)).toBe('El número debe ser como máximo 120');
    expect(helperOf(/^Renta/)).toBe('El número debe ser al menos 1');
    expect(screen.getByText('El archivo no tiene una extensión válida')).toBeInTheDocument();

    type(/^Edad/, '17');
    expect(await screen.findByText('El número debe ser al menos 18')).toBeInTheDocument();
  });

  test('valid values reach onSubmit cleaned by the validator', async () => {
    const { onSubmit } = renderForm({ definition });
    type(/^Full name/, 'Ana Pérez');
    type(/^Cellphone/, '(300) 123-4567');
    type(/^Age/, '34');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({ fullName: 'Ana Pérez', phone: '3001234567', age: 34 });
  });
});

describe('conditions', () => {
  test('a hidden field is not shown, not validated and not submitted; it appears when its condition holds', async () => {
    const { onSubmit } = renderForm({
      definition: {
        fields: [
          f('thirdParty', 'switch', 'Is a third party helping you?', '¿Le ayuda un tercero?'),
          f('thirdPartyEmail', 'email', 'Third party email', 'Correo del tercero', { required: true, visibleWhen: 'thirdParty == true' }),
        ],
      },
    });
    expect(screen.queryByRole('textbox', { name: /Third party email/ })).not.toBeInTheDocument();
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ thirdParty: false }));

    fireEvent.click(screen.getByRole('switch', { name: 'Is a third party helping you?' }));
    expect(await screen.findByRole('textbox', { name: /Third party email/ })).toBeInTheDocument();
    save();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });
});

describe('steppers', () => {
  const definition = {
    layout: 'stepper' as const,
    fields: [
      f('application', 'stepper', 'Application', 'Solicitud', {
        children: [
          f('one', 'step', 'Applicant', 'Solicitante', { children: [f('firstName', 'text', 'First name', 'Nombres', { required: true })] }),
          f('two', 'step', 'Rent', 'Renta', { children: [f('payRent', 'currency', 'Monthly rent', 'Renta mensual', { required: true })] }),
        ],
      }),
    ],
  };

  test('Next checks only the fields of the current step; Back keeps the values; the steps are buttons', async () => {
    const { onSubmit } = renderForm({ definition });
    expect(screen.getByRole('heading', { name: 'Step 1 of 2: Applicant' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Step 1 of 2: Applicant' })).toBeInTheDocument();

    type(/^First name/, 'Ana');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Step 2 of 2: Rent' })).toBeInTheDocument();
    // The second step's required field has not been checked yet.
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('textbox', { name: /^First name/ })).toHaveValue('Ana');
    // The steps are tabs: the keyboard reaches them (arrows move between them) and opens one.
    const first = screen.getByRole('tab', { name: 'Applicant' });
    first.focus();
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    const second = screen.getByRole('tab', { name: 'Rent' });
    expect(second).toHaveFocus();
    fireEvent.click(second);
    expect(await screen.findByRole('heading', { name: 'Step 2 of 2: Rent' })).toBeInTheDocument();
    save();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    type(/^Monthly rent/, '850');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ firstName: 'Ana', payRent: 850 }));
  });

  test('a message Next showed goes while typing, before the field is left: the click on Next that leaves it is not lost to a moving layout', async () => {
    renderForm({ definition });
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    const input = screen.getByRole('textbox', { name: /^First name/ });
    // Typed, not left: no blur has happened yet.
    fireEvent.change(input, { target: { value: 'Ana' } });
    await waitFor(() => expect(helperOf(/^First name/)).toBeNull());
    expect(input).toHaveAttribute('aria-invalid', 'false');
    // Emptied again: the message is back at once, still without a blur.
    fireEvent.change(input, { target: { value: '' } });
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'Ana' } });
    await waitFor(() => expect(helperOf(/^First name/)).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByRole('heading', { name: 'Step 2 of 2: Rent' })).toBeInTheDocument();
  });

  test('a message the server set goes while typing too', async () => {
    const ref = createRef<FormRendererHandle>();
    renderForm({ definition: { fields: [f('firstName', 'text', 'First name', 'Nombres')] }, ref });
    act(() => {
      ref.current?.setServerErrors([{ path: 'firstName', message: 'Not this name' }]);
    });
    expect(await screen.findByText('Not this name')).toBeInTheDocument();
    fireEvent.change(screen.getByRole('textbox', { name: /^First name/ }), { target: { value: 'Ana' } });
    await waitFor(() => expect(screen.queryByText('Not this name')).not.toBeInTheDocument());
  });

  test('a submit with an error in an earlier step opens that step', async () => {
    renderForm({ definition, defaultValues: { payRent: '850' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Rent' }));
    // Going forward checks the steps left behind.
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Step 1 of 2: Applicant' })).toBeInTheDocument();
  });
});

describe('repeat groups', () => {
  const definition = {
    fields: [
      f('household', 'repeat', 'Household members', 'Integrantes del hogar', {
        children: [
          f('memberName', 'text', 'Name', 'Nombre', { required: true }),
          f('age', 'number', 'Age', 'Edad', { max: 120 }),
          f('income', 'currency', 'Monthly income', 'Ingreso mensual', { showWhenTable: "role != 'applicant'" }),
          f('disability', 'checkbox', 'Disability', 'Discapacidad', { headers: false }),
        ],
      }),
    ],
  };

  test('rows are added in a dialog checked by the validator, shown in a table that follows headers and showWhenTable, and removed after a confirmation', async () => {
    const { onSubmit } = renderForm({ definition, role: 'coordinator' });
    const table = screen.getByRole('table', { name: 'Household members' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['#', 'Name', 'Age', 'Monthly income', 'Actions']);

    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add to “Household members”' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Age/ }), { target: { value: '130' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(await within(dialog).findByText('This field is required')).toBeInTheDocument();
    expect(within(dialog).getByText('The number must be at most 120')).toBeInTheDocument();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Ana' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Age/ }), { target: { value: '34' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(table).getByRole('cell', { name: 'Ana' })).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    dialog = await screen.findByRole('dialog', { name: 'Add to “Household members”' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Luis' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));

    fireEvent.click(within(table).getByRole('button', { name: 'Remove row 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove the row?' });
    expect(confirm).toHaveTextContent('Row 1 of “Household members” will be removed.');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(within(table).queryByRole('cell', { name: 'Ana' })).not.toBeInTheDocument());
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ household: [{ memberName: 'Luis', disability: false }] }));
  });

  test('a column hidden by showWhenTable for the role stays out of the table', () => {
    renderForm({ definition, role: 'applicant' });
    const table = screen.getByRole('table', { name: 'Household members' });
    expect(within(table).getAllByRole('columnheader').map((c) => c.textContent)).toEqual(['#', 'Name', 'Age', 'Actions']);
  });

  test('values typed but not added bring the warning before the dialog closes', async () => {
    renderForm({ definition });
    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add to “Household members”' });
    // Nothing typed: Cancel just closes.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole('button', { name: 'Add row' }));
    const again = await screen.findByRole('dialog', { name: 'Add to “Household members”' });
    fireEvent.change(within(again).getByRole('textbox', { name: /^Name/ }), { target: { value: 'Ana' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Cancel' }));
    const warning = await screen.findByRole('dialog', { name: 'Values not added' });
    expect(warning).toHaveTextContent('You typed values in “Household members” that were not added. Do you want to continue without adding them?');
    fireEvent.click(within(warning).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Values not added' })).not.toBeInTheDocument());
    expect(within(again).getByRole('textbox', { name: /^Name/ })).toHaveValue('Ana');

    fireEvent.keyDown(again, { key: 'Escape' });
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Values not added' })).getByRole('button', { name: 'Continue without adding' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('No rows yet')).toBeInTheDocument();
  });
});

describe('master selects', () => {
  test('ask the options endpoint, a child with the value of the field its type_aux names, and empty the child when the parent changes', async () => {
    const fetchMock = mockFetch((url) => {
      if (url === '/api/forms/7/options/departamento') return jsonResponse({ options: [{ value: '05', label: 'Antioquia' }, { value: '08', label: 'Atlántico' }] });
      if (url === '/api/forms/7/options/municipio?parent=05') return jsonResponse({ options: [{ value: '05001', label: 'Medellín' }] });
      if (url === '/api/forms/7/options/municipio?parent=08') return jsonResponse({ options: [{ value: '08001', label: 'Barranquilla' }] });
      return jsonResponse({ error: { code: 'NOT_FOUND', message: 'Not found' } }, 404);
    });
    const { onSubmit } = renderForm({
      formId: 7,
      definition: {
        fields: [
          f('departamento', 'master_select', 'State', 'Departamento', { master: 'departamentos', required: true }),
          f('municipio', 'master_select', 'City', 'Municipio', { master: 'municipios', type_aux: 'departamento', required: true }),
        ],
      },
    });
    const city = screen.getByRole('combobox', { name: /^City/ });
    expect(city).toBeDisabled();
    expect(screen.getByText('Choose State first')).toBeInTheDocument();

    const pick = async (box: HTMLElement, text: string, option: string) => {
      act(() => box.focus());
      fireEvent.change(box, { target: { value: text } });
      fireEvent.click(await screen.findByRole('option', { name: option }));
    };
    const state = screen.getByRole('combobox', { name: /^State/ });
    await pick(state, 'Ant', 'Antioquia');
    await waitFor(() => expect(city).toBeEnabled());
    await pick(city, 'Med', 'Medellín');
    expect(city).toHaveValue('Medellín');

    await pick(state, 'Atl', 'Atlántico');
    await waitFor(() => expect(city).toHaveValue(''));
    await pick(city, 'Barr', 'Barranquilla');
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ departamento: '08', municipio: '08001' }));
    const urls = fetchMock.mock.calls.map(([url]) => url);
    expect(urls).toEqual(expect.arrayContaining(['/api/forms/7/options/municipio?parent=05', '/api/forms/7/options/municipio?parent=08']));
    expect(urls).not.toContain('/api/forms/7/options/municipio');
  });
});

describe('read-only', () => {
  test('shows the values without letting them change, add rows or submit', () => {
    renderForm({
      readOnly: true,
      defaultValues: { fullName: 'Ana', household: [{ memberName: 'Luis' }] },
      definition: {
        fields: [
          f('fullName', 'text', 'Full name', 'Nombre completo', { required: true }),
          f('household', 'repeat', 'Household members', 'Integrantes del hogar', { children: [f('memberName', 'text', 'Name', 'Nombre')] }),
        ],
      },
    });
    expect(screen.getByRole('textbox', { name: /^Full name/ })).toHaveValue('Ana');
    expect(screen.getByRole('textbox', { name: /^Full name/ })).toBeDisabled();
    expect(within(screen.getByRole('table', { name: 'Household members' })).getByRole('cell', { name: 'Luis' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add row' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });
});

describe('file fields', () => {
  test('upload on choose with a progress bar, then show name and size with a remove button; the value is the file reference', async () => {
    let finish: ((ref: { id: string; name: string; size: number }) => void) | undefined;
    const upload = vi.fn((file: File, onProgress: (fraction: number) => void) => {
      onProgress(0.5);
      return new Promise<{ id: string; name: string; size: number }>((resolve) => (finish = resolve)).then((ref) => ({ ...ref, name: file.name }));
    });
    const { onSubmit } = renderForm({ upload, definition: { fields: [f('lease', 'file', 'Lease', 'Contrato', { accept: ['pdf'], required: true })] } });
    const chooser = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!chooser) throw new Error('no file input');
    expect(chooser).toHaveAttribute('accept', '.pdf');
    fireEvent.change(chooser, { target: { files: [new File(['%PDF-1.7'], 'lease.pdf', { type: 'application/pdf' })] } });
    const progress = await screen.findByRole('progressbar', { name: 'Uploading lease.pdf' });
    expect(progress).toHaveAttribute('aria-valuenow', '50');
    await act(async () => finish?.({ id: 'f1', name: 'lease.pdf', size: 2048 }));
    expect(await screen.findByRole('button', { name: 'Download lease.pdf' })).toBeInTheDocument();
    expect(screen.getByText('2 KB')).toBeInTheDocument();
    save();
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ lease: [{ id: 'f1', name: 'lease.pdf', size: 2048 }] }));

    fireEvent.click(screen.getByRole('button', { name: 'Remove file: lease.pdf' }));
    expect(screen.queryByRole('button', { name: 'Download lease.pdf' })).not.toBeInTheDocument();
    save();
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
  });

  test('sent while a file is still uploading: waits for the upload and sends the file, rather than calling the field empty', async () => {
    let finish: ((ref: { id: string; name: string; size: number }) => void) | undefined;
    const upload = vi.fn(() => new Promise<{ id: string; name: string; size: number }>((resolve) => (finish = resolve)));
    const { onSubmit } = renderForm({ upload, definition: { fields: [f('lease', 'file', 'Lease', 'Contrato', { accept: ['pdf'], required: true })] } });
    const chooser = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!chooser) throw new Error('no file input');
    fireEvent.change(chooser, { target: { files: [new File(['%PDF-1.7'], 'lease.pdf', { type: 'application/pdf' })] } });
    await screen.findByRole('progressbar', { name: 'Uploading lease.pdf' });
    save();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    await act(async () => finish?.({ id: 'f2', name: 'lease.pdf', size: 10 }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ lease: [{ id: 'f2', name: 'lease.pdf', size: 10 }] }));
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
  });
});
