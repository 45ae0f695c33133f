// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import TextField from '@mui/material/TextField';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import i18n from '../../i18n/index.js';
import { ApiError } from '../../lib/api.js';
import { setScreenWidth } from '../../test/utils.js';
import { ActionToolbar, CsvFileStep, FactsList, FilterBar, FilterMultiSelect, FilterSelect, FormDialog, ImportProblemsTable, InfoDialog, QueryState, Section } from './index.js';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('Section', () => {
  test('is a region named by its h2, with its action beside the title', () => {
    render(
      <Section title="Summary" action={<button type="button">Edit</button>}>
        <p>Body</p>
      </Section>,
    );
    const region = screen.getByRole('region', { name: 'Summary' });
    expect(within(region).getByRole('heading', { level: 2, name: 'Summary' })).toBeInTheDocument();
    expect(within(region).getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(within(region).getByText('Body')).toBeInTheDocument();
  });

  test('keeps a given heading id for links to it', () => {
    render(<Section title="Next" id="task-next">x</Section>);
    expect(screen.getByRole('heading', { name: 'Next' })).toHaveAttribute('id', 'task-next');
  });
});

describe('FactsList', () => {
  test('is a description list of terms and values', () => {
    const { container } = render(
      <FactsList
        items={[
          ['Number', 'A-1'],
          ['Owner', <strong key="o">Ana</strong>],
        ]}
      />,
    );
    const terms = [...container.querySelectorAll('dl > div > dt')].map((dt) => dt.textContent);
    const values = [...container.querySelectorAll('dl > div > dd')].map((dd) => dd.textContent);
    expect(terms).toEqual(['Number', 'Owner']);
    expect(values).toEqual(['A-1', 'Ana']);
  });
});

describe('ActionToolbar', () => {
  test('is a named toolbar, and nothing without buttons', () => {
    const { rerender } = render(
      <ActionToolbar label="Case actions">
        <button type="button">Close</button>
      </ActionToolbar>,
    );
    expect(within(screen.getByRole('toolbar', { name: 'Case actions' })).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    rerender(<ActionToolbar label="Case actions">{[]}</ActionToolbar>);
    expect(screen.queryByRole('toolbar')).not.toBeInTheDocument();
  });
});

describe('QueryState', () => {
  test('a placeholder named Loading while the data is not there', () => {
    render(<QueryState query={{ data: undefined, isError: false, error: null }}>{() => 'content'}</QueryState>);
    expect(screen.getByLabelText('Loading...')).toBeInTheDocument();
    expect(screen.queryByText('content')).not.toBeInTheDocument();
  });

  test('the error, with Retry that loads again when asked for', () => {
    const refetch = vi.fn();
    render(
      <QueryState query={{ data: undefined, isError: true, error: new Error('boom'), refetch }} retry>
        {() => 'content'}
      </QueryState>,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(refetch).toHaveBeenCalledOnce();
  });

  test('another way on beside the error, when given', () => {
    render(
      <QueryState query={{ data: undefined, isError: true, error: new ApiError(404, 'NOT_FOUND', 'This draft is gone') }} errorAction={<a href="/cases/drafts">Drafts</a>}>
        {() => 'content'}
      </QueryState>,
    );
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('This draft is gone');
    expect(within(alert).getByRole('link', { name: 'Drafts' })).toHaveAttribute('href', '/cases/drafts');
  });

  test('the empty state, then the content', () => {
    const { rerender } = render(
      <QueryState query={{ data: [] as string[], isError: false, error: null }} isEmpty={(d) => d.length === 0} empty="Nothing here">
        {(d) => d.join(',')}
      </QueryState>,
    );
    expect(screen.getByText('Nothing here')).toBeInTheDocument();
    rerender(
      <QueryState query={{ data: ['a', 'b'], isError: false, error: null }} isEmpty={(d) => d.length === 0} empty="Nothing here">
        {(d) => d.join(',')}
      </QueryState>,
    );
    expect(screen.getByText('a,b')).toBeInTheDocument();
  });
});

describe('FormDialog', () => {
  test('is a dialog named by its title; Enter in a field submits, Cancel closes', () => {
    setScreenWidth(1200);
    const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
    const onClose = vi.fn();
    render(
      <FormDialog title="New team" onClose={onClose} onSubmit={onSubmit}>
        <TextField label="Name" />
      </FormDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'New team' });
    fireEvent.submit(within(dialog).getByRole('textbox', { name: 'Name' }).closest('form')!);
    expect(onSubmit).toHaveBeenCalledOnce();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toHaveAttribute('type', 'submit');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledOnce();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  test('a custom submit text that is disabled while pending', () => {
    setScreenWidth(1200);
    render(
      <FormDialog title="Reject" onClose={() => {}} onSubmit={() => {}} submitLabel="Reject task" submitColor="error" pending>
        x
      </FormDialog>,
    );
    expect(screen.getByRole('button', { name: /Reject task/ })).toBeDisabled();
  });
});

describe('FilterBar', () => {
  const bar = (props: { clearable?: boolean; onClear?: () => void } = {}) => (
    <FilterBar search={<TextField label="Search" />} narrowing={2} actions={<button type="button">Advanced</button>} {...props}>
      <TextField label="State" />
      <TextField label="Team" />
    </FilterBar>
  );

  test('on a wide screen the search, the filters and the buttons share one row; Clear shows while something narrows', () => {
    setScreenWidth(1200);
    const onClear = vi.fn();
    const { rerender } = render(bar({ onClear, clearable: false }));
    expect(screen.getByRole('textbox', { name: 'State' })).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Team' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Advanced' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Filters/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
    rerender(bar({ onClear, clearable: true }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    expect(onClear).toHaveBeenCalledOnce();
  });

  test('on a phone the filters fold behind a Filters button that counts them and opens them under the bar', () => {
    setScreenWidth(390);
    render(bar());
    expect(screen.getByRole('textbox', { name: 'Search' })).toBeVisible();
    expect(screen.queryByRole('textbox', { name: 'State' })).not.toBeInTheDocument();
    const toggle = screen.getByRole('button', { name: 'Filters (2)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(panel).not.toBeNull();
    fireEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(within(panel!).getByRole('textbox', { name: 'State' })).toBeVisible();
    expect(within(panel!).getByRole('textbox', { name: 'Team' })).toBeVisible();
  });
});

describe('FilterSelect and FilterMultiSelect', () => {
  test('one value or all of them; a value no longer offered shows as all', () => {
    setScreenWidth(1200);
    const onChange = vi.fn();
    const options = [
      { value: '1', label: 'Housing' },
      { value: '2', label: 'Grants' },
    ];
    const { rerender } = render(<FilterSelect label="Protocol" value="9" allLabel="All protocols" options={options} onChange={onChange} />);
    const select = screen.getByRole('combobox', { name: 'Protocol' });
    expect(select).toHaveTextContent('All protocols');
    fireEvent.mouseDown(select);
    fireEvent.click(screen.getByRole('option', { name: 'Grants' }));
    expect(onChange).toHaveBeenCalledWith('2');
    rerender(<FilterSelect label="Protocol" value="2" allLabel="All protocols" options={options} onChange={onChange} />);
    expect(screen.getByRole('combobox', { name: 'Protocol' })).toHaveTextContent('Grants');
  });

  test('several values, each a checkbox, named together; none says all', () => {
    setScreenWidth(1200);
    const onChange = vi.fn();
    const options = [
      { value: 'OPEN', label: 'Open' },
      { value: 'CLOSED', label: 'Closed' },
    ];
    const { rerender } = render(<FilterMultiSelect label="State" value={[]} allLabel="All states" options={options} onChange={onChange} />);
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveTextContent('All states');
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'State' }));
    fireEvent.click(screen.getByRole('option', { name: 'Closed' }));
    expect(onChange).toHaveBeenCalledWith(['CLOSED']);
    // The menu of a multiple choice stays open for the next one until Escape.
    fireEvent.keyDown(screen.getByRole('listbox'), { key: 'Escape' });
    rerender(<FilterMultiSelect label="State" value={['OPEN', 'CLOSED']} allLabel="All states" options={options} onChange={onChange} />);
    expect(screen.getByRole('combobox', { name: 'State' })).toHaveTextContent('Open, Closed');
  });
});

describe('CsvFileStep', () => {
  const fileInput = () => {
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    return input;
  };

  test('says what the file holds, hands over the chosen file and shows its name; a refusal says the server\'s first problem', () => {
    const onFile = vi.fn();
    const { rerender } = render(<CsvFileStep help="Columns code and name" onFile={onFile} />);
    expect(screen.getByText('Columns code and name')).toBeInTheDocument();
    expect(fileInput()).toHaveAttribute('accept', '.csv,text/csv');
    const file = new File(['code,name\n'], 'items.csv', { type: 'text/csv' });
    fireEvent.change(fileInput(), { target: { files: [file] } });
    expect(onFile).toHaveBeenCalledWith(file);
    const refused = new ApiError(422, 'VALIDATION', 'Some values are not valid', [{ path: 'file', message: 'The file is not UTF-8 text' }]);
    rerender(<CsvFileStep help="Columns code and name" onFile={onFile} fileName="items.csv" error={refused} />);
    expect(screen.getByText('items.csv')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('The file is not UTF-8 text');
  });

  test('the button opens the picker only when the choices before the file are made', () => {
    const ready = vi.fn(() => false);
    render(<CsvFileStep help="Help" onFile={() => {}} ready={ready} />);
    const click = vi.spyOn(fileInput(), 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Choose a CSV file' }));
    expect(ready).toHaveBeenCalledOnce();
    expect(click).not.toHaveBeenCalled();
    ready.mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Choose a CSV file' }));
    expect(click).toHaveBeenCalledOnce();
  });
});

describe('ImportProblemsTable', () => {
  test('a table named by its heading: line, where, message', () => {
    render(
      <ImportProblemsTable
        title="Rows with problems (2)"
        whereLabel="Column"
        problems={[
          { line: 4, where: 'name', message: 'This field is required' },
          { line: 5, where: 'parent', message: 'You must choose an option' },
        ]}
      />,
    );
    const table = screen.getByRole('table', { name: 'Rows with problems (2)' });
    expect(within(table).getAllByRole('row').map((row) => [...row.children].map((cell) => cell.textContent))).toEqual([
      ['Line', 'Column', 'Message'],
      ['4', 'name', 'This field is required'],
      ['5', 'parent', 'You must choose an option'],
    ]);
  });
});

describe('FormDialog for an action that cannot be undone', () => {
  test('described by its sentence; Cancel holds the focus, and while the request runs neither Cancel nor Escape closes it', () => {
    setScreenWidth(1200);
    const onClose = vi.fn();
    const { rerender } = render(
      <FormDialog title="Close 2026-1" description="The applicant is told." onClose={onClose} onSubmit={() => {}} submitLabel="Close case" irreversible>
        <TextField label="Reason" />
      </FormDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Close 2026-1' });
    expect(dialog).toHaveAccessibleDescription('The applicant is told.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    rerender(
      <FormDialog title="Close 2026-1" description="The applicant is told." onClose={onClose} onSubmit={() => {}} submitLabel="Close case" irreversible pending>
        <TextField label="Reason" />
      </FormDialog>,
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).not.toHaveBeenCalled();
  });
});

describe('InfoDialog', () => {
  test('a report: named by its title, its one button is Close, holds the focus, and Escape closes too', () => {
    setScreenWidth(1200);
    const onClose = vi.fn();
    render(
      <InfoDialog title="Bulk close" onClose={onClose} report>
        <p>2 closed</p>
      </InfoDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Bulk close' });
    expect(within(dialog).getByText('2 closed')).toBeInTheDocument();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(within(dialog).getAllByRole('button')).toHaveLength(1);
    expect(close).toHaveFocus();
    fireEvent.click(close);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  test('a choice: the button says Cancel, and on a phone it fills the screen', () => {
    setScreenWidth(390);
    render(
      <InfoDialog title="Choose a type" onClose={() => {}} closeLabel="Cancel">
        <button type="button">Text</button>
      </InfoDialog>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Choose a type' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).not.toHaveFocus();
    expect(dialog.className).toMatch(/paperFullScreen/);
  });
});
