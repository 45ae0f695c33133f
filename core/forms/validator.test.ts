import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldDef, FormDefinitionError, parseFormDefinition } from './definition.js';
import { formValuesSchema, validateForm } from './validator.js';

const f = (name: string, type: FieldDef['type'], extra: Partial<FieldDef> = {}): FieldDef => ({ name, type, label: name, ...extra });
const issuesOf = (fields: FieldDef[], values: unknown, ctx = {}) => {
  const r = validateForm({ fields }, values, ctx);
  return r.success ? [] : r.issues.map((i) => `${i.path}:${i.key}${i.params ? JSON.stringify(i.params) : ''}`);
};

describe('field rules and the spec messages', () => {
  it('requires a value, or an option for choice fields', () => {
    const fields = [f('name', 'text', { required: true }), f('state', 'select', { required: true, options: [{ value: 'A', label: 'A' }] })];
    expect(issuesOf(fields, {})).toEqual(['name:validation.required', 'state:validation.chooseOption']);
    expect(issuesOf(fields, { name: '   ', state: '' })).toEqual(['name:validation.required', 'state:validation.chooseOption']);
    expect(issuesOf(fields, { name: 'Ana', state: 'A' })).toEqual([]);
  });

  it('counts characters and bounds numbers', () => {
    const fields = [f('code', 'text', { minLength: 2, maxLength: 4 }), f('rent', 'currency', { min: 1, max: 5000 })];
    expect(issuesOf(fields, { code: 'ABCDE', rent: 0 })).toEqual(['code:validation.maxLength{"max":4}', 'rent:validation.min{"min":1}']);
    expect(issuesOf(fields, { code: 'A', rent: 5000.01 })).toEqual(['code:validation.minLength{"min":2}', 'rent:validation.max{"max":5000}']);
    expect(issuesOf(fields, { code: 'AB', rent: '1200.50' })).toEqual([]);
    expect(issuesOf(fields, { rent: 10.123 })).toEqual(['rent:validation.currency']);
  });

  it('checks emails, phones (10 digits: 3 plus 7), zip codes and dates', () => {
    const fields = [f('email', 'email'), f('phone', 'phone'), f('zip', 'zip'), f('born', 'date')];
    expect(issuesOf(fields, { email: 'a@b', phone: '300 123 456', zip: '1234', born: '2021-02-30' })).toEqual([
      'email:validation.invalidEmail', 'phone:validation.invalidPhone', 'zip:validation.invalidZip', 'born:validation.invalidDate',
    ]);
    const ok = validateForm({ fields }, { email: ' ana@example.org ', phone: '(300) 123-4567', zip: '00907-1234', born: '2020-02-29' });
    expect(ok).toEqual({ success: true, data: { email: 'ana@example.org', phone: '3001234567', zip: '00907-1234', born: '2020-02-29' } });
  });

  it('checks file extensions', () => {
    const fields = [f('lease', 'file', { accept: ['pdf', 'jpg'], maxSizeMb: 1 })];
    expect(issuesOf(fields, { lease: { id: 'f1', name: 'lease.exe' } })).toEqual(['lease:validation.fileExtension']);
    expect(issuesOf(fields, { lease: { id: 'f1', name: 'lease.PDF', size: 2 * 1024 * 1024 } })).toEqual(['lease:validation.fileSize{"max":1}']);
    expect(issuesOf(fields, { lease: { id: 'f1', name: 'lease.pdf', size: 100 } })).toEqual([]);
  });

  it('accepts only known options, and drops unknown keys', () => {
    const fields = [f('sources', 'select_multiple', { options: [{ value: 'SNAP', label: 'SNAP' }, { value: 'WIC', label: 'WIC' }] })];
    expect(issuesOf(fields, { sources: ['SNAP', 'HACK'] })).toEqual(['sources:validation.chooseOption']);
    expect(validateForm({ fields }, { sources: ['SNAP', 'SNAP'], owner: 'me', __proto__: { x: 1 } })).toEqual({ success: true, data: { sources: ['SNAP'] } });
  });

  it('uses the options the server resolved for master selects', () => {
    const fields = [f('city', 'master_select', { master: 'municipios', required: true })];
    expect(issuesOf(fields, { city: '05001' }, { options: { city: ['11001'] } })).toEqual(['city:validation.chooseOption']);
    expect(issuesOf(fields, { city: '11001' }, { options: { city: ['11001'] } })).toEqual([]);
  });

  it('refuses values of the wrong type', () => {
    const fields = [f('name', 'text'), f('agree', 'checkbox'), f('count', 'number'), f('rows', 'repeat', { children: [f('a', 'text')] })];
    expect(issuesOf(fields, { name: { $ne: 1 }, agree: 'yes', count: 'ten', rows: 'x' })).toEqual([
      'name:validation.invalidValue', 'agree:validation.invalidValue', 'count:validation.number', 'rows:validation.invalidValue',
    ]);
  });
});

describe('conditions', () => {
  it('does not validate or keep hidden fields', () => {
    const fields = [
      f('working_third_party', 'switch'),
      f('third_party_email', 'email', { required: true, visibleWhen: 'working_third_party == true' }),
    ];
    expect(validateForm({ fields }, { working_third_party: false, third_party_email: 'not an email' })).toEqual({ success: true, data: { working_third_party: false } });
    expect(issuesOf(fields, { working_third_party: true })).toEqual(['third_party_email:validation.required']);
  });

  it('can depend on the role', () => {
    const fields = [f('notes', 'text', { required: true, visibleWhen: "role == 'reviewer'" })];
    expect(issuesOf(fields, {}, { role: 'applicant' })).toEqual([]);
    expect(issuesOf(fields, {}, { role: 'reviewer' })).toEqual(['notes:validation.required']);
  });
});

describe('repeat groups and steppers', () => {
  const household = f('household', 'repeat', {
    minRows: 1,
    maxRows: 3,
    children: [f('name', 'text', { required: true }), f('age', 'number', { min: 0, max: 120 }), f('income', 'currency', { visibleWhen: 'age >= 18' })],
  });

  it('validates every row with paths to the cell', () => {
    expect(issuesOf([household], { household: [] })).toEqual(['household:validation.minRows{"min":1}']);
    expect(issuesOf([household], { household: [{ name: 'Ana', age: 30 }, { age: 200 }] })).toEqual([
      'household.1.name:validation.required', 'household.1.age:validation.max{"max":120}',
    ]);
    // A hidden cell of a row is dropped.
    expect(validateForm({ fields: [household] }, { household: [{ name: 'Leo', age: 9, income: 5 }] })).toEqual({ success: true, data: { household: [{ name: 'Leo', age: 9 }] } });
  });

  it("flattens a stepper's steps into the form's own values", () => {
    const stepper = f('wizard', 'stepper', { children: [f('s1', 'step', { children: [f('first', 'text', { required: true })] }), f('s2', 'step', { children: [household] })] });
    expect(issuesOf([stepper], {})).toEqual(['first:validation.required', 'household:validation.minRows{"min":1}']);
    expect(validateForm({ fields: [stepper] }, { first: 'x', household: [{ name: 'A' }] }).success).toBe(true);
  });
});

describe('the zod schema used by the browser', () => {
  it('carries translated messages on the field paths', () => {
    const schema = formValuesSchema({ fields: [f('email', 'email'), f('rows', 'repeat', { children: [f('n', 'text', { required: true })] })] }, {
      translate: (key) => (key === 'validation.required' ? 'This field is required' : key === 'validation.invalidEmail' ? 'Invalid email address' : key),
    });
    const r = schema.safeParse({ email: 'x', rows: [{}] });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['email', 'Invalid email address'],
      ['rows.0.n', 'This field is required'],
    ]);
  });

  it('agrees with the server validator on random values (property)', () => {
    const fields = [
      f('name', 'text', { required: true, maxLength: 5 }),
      f('age', 'number', { min: 0, max: 120 }),
      f('email', 'email'),
      f('phone', 'phone'),
      f('kind', 'select', { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] }),
      f('agree', 'checkbox', { required: true }),
      f('extra', 'text', { required: true, visibleWhen: "kind == 'b'" }),
      f('rows', 'repeat', { maxRows: 2, children: [f('x', 'number', { required: true })] }),
    ];
    const schema = formValuesSchema({ fields });
    const value = fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.constantFrom('a', 'b', '3001234567', 'a@b.co'));
    const values = fc.record({
      name: value, age: value, email: value, phone: value, kind: value, agree: value, extra: value,
      rows: fc.oneof(value, fc.array(fc.record({ x: value }), { maxLength: 3 })),
    }, { requiredKeys: [] });
    fc.assert(
      fc.property(values, (v) => {
        const server = validateForm({ fields }, v);
        const browser = schema.safeParse(v);
        expect(browser.success).toBe(server.success);
        if (!server.success && !browser.success) {
          expect(browser.error.issues.map((i) => `${i.path.join('.')}:${i.message}`)).toEqual(server.issues.map((i) => `${i.path}:${i.key}`));
        } else if (server.success && browser.success) {
          expect(browser.data).toEqual(server.data);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('form definitions', () => {
  const problems = (fields: unknown[]) => {
    try {
      parseFormDefinition({ name: 'F', fields });
      return [];
    } catch (e) {
      if (!(e instanceof FormDefinitionError)) throw e;
      return e.problems.map((p) => `${p.path}:${p.reason}`);
    }
  };

  it('accepts a well-formed definition with defaults', () => {
    const def = parseFormDefinition({ name: 'Application', fields: [f('a', 'text')] });
    expect(def).toMatchObject({ layout: 'columns', languages: ['en', 'es'], description: '' });
  });

  it('refuses duplicate names within a scope, allowing the same name in a repeat row', () => {
    expect(problems([f('a', 'text'), f('a', 'number')])).toEqual(['fields.a:forms.def.duplicateName']);
    expect(problems([f('a', 'text'), f('r', 'repeat', { children: [f('a', 'text')] })])).toEqual([]);
    // Steps share the form's scope.
    expect(problems([f('a', 'text'), f('w', 'stepper', { children: [f('s', 'step', { children: [f('a', 'text')] })] })])).toEqual(['fields.w.children.s.children.a:forms.def.duplicateName']);
  });

  it('refuses unknown types and bad names with the field path', () => {
    expect(problems([{ name: 'a', type: 'hologram', label: 'A' }])).toEqual(['fields.0.type:forms.def.unknownType']);
    expect(problems([{ name: '1bad name', type: 'text', label: 'A' }])).toEqual(['fields.0.name:forms.def.badName']);
  });

  it('refuses bad conditions with the position of the error', () => {
    try {
      parseFormDefinition({ name: 'F', fields: [f('a', 'text', { visibleWhen: 'b > ' })] });
      expect.unreachable();
    } catch (e) {
      expect((e as FormDefinitionError).problems[0]).toMatchObject({ path: 'fields.a', reason: 'forms.def.badCondition', params: { property: 'visibleWhen', position: 5 } });
    }
  });

  it('refuses misplaced steps, nested steppers, empty containers and missing options', () => {
    expect(problems([f('s', 'step', { children: [f('a', 'text')] })])).toEqual(['fields.s:forms.def.stepOutsideStepper']);
    expect(problems([f('w', 'stepper', { children: [f('a', 'text')] })])).toEqual(['fields.w.children.a:forms.def.stepperNeedsSteps']);
    expect(problems([f('r', 'repeat', { children: [f('w', 'stepper', { children: [f('s', 'step', { children: [f('a', 'text')] })] })] })])).toContain('fields.r.children.w:forms.def.stepperNotTop');
    expect(problems([f('r', 'repeat', { children: [] })])).toEqual(['fields.r:forms.def.needsChildren']);
    expect(problems([f('k', 'select')])).toEqual(['fields.k:forms.def.needsOptions']);
    expect(problems([f('u', 'file')])).toEqual(['fields.u:forms.def.needsExtensions']);
    expect(problems([f('t', 'text', { children: [f('a', 'text')] })])).toEqual(['fields.t:forms.def.noChildrenAllowed']);
  });

  it('refuses patterns that do not compile or could take exponential time', () => {
    expect(problems([f('a', 'text', { pattern: '(' })])).toEqual(['fields.a:forms.def.badPattern']);
    expect(problems([f('a', 'text', { pattern: '(a+)+$' })])).toEqual(['fields.a:forms.def.badPattern']);
    expect(problems([f('a', 'text', { pattern: '^[0-9]{4}$' })])).toEqual([]);
  });

  it('refuses bounds that cannot both hold', () => {
    expect(problems([f('a', 'text', { minLength: 5, maxLength: 2 })])).toEqual(['fields.a:forms.def.badBounds']);
  });
});

describe('a "party" field (issue 23)', () => {
  const landlord = f('landlord', 'party', { partyRole: 'landlord', required: true });
  const anyone = f('other', 'party');

  it('is refused by the definition check with an unknown fixed role', () => {
    expect(() => parseFormDefinition({ name: 'F', fields: [landlord, anyone] })).not.toThrow();
    expect(() => parseFormDefinition({ name: 'F', fields: [{ ...landlord, partyRole: 'butler' }] })).toThrow(FormDefinitionError);
  });

  it('keeps role, name, email and phone; the field fixes the role, or the person chooses one', () => {
    const r = validateForm({ fields: [landlord, anyone] }, {
      landlord: { name: '  Larry Landlord ', email: ' larry@example.org ', phone: '(555) 123-4567' },
      other: { role: 'utility', name: 'City Power', email: 'billing@power.example.org' },
    });
    expect(r).toEqual({
      success: true,
      data: {
        landlord: { role: 'landlord', name: 'Larry Landlord', email: 'larry@example.org', phone: '5551234567' },
        other: { role: 'utility', name: 'City Power', email: 'billing@power.example.org', phone: null },
      },
    });
  });

  it('checks the email, the phone, the name and the role, each at its own path', () => {
    expect(issuesOf([landlord], { landlord: { name: 'L', email: 'not-an-email' } })).toEqual(['landlord.email:validation.invalidEmail']);
    expect(issuesOf([landlord], { landlord: { name: 'L', email: 'l@example.org', phone: '123' } })).toEqual(['landlord.phone:validation.invalidPhone']);
    expect(issuesOf([landlord], { landlord: { email: 'l@example.org' } })).toEqual(['landlord.name:validation.required']);
    expect(issuesOf([landlord], { landlord: { role: 'utility', name: 'L', email: 'l@example.org' } })).toEqual(['landlord.role:validation.chooseOption']);
    expect(issuesOf([anyone], { other: { role: 'butler', name: 'B', email: 'b@example.org' } })).toEqual(['other.role:validation.chooseOption']);
    expect(issuesOf([anyone], { other: 'Larry' })).toEqual(['other:validation.invalidValue']);
  });

  it('left blank it is empty: required says so, optional keeps nothing', () => {
    expect(issuesOf([landlord], { landlord: { name: '', email: ' ', phone: null } })).toEqual(['landlord:validation.required']);
    expect(validateForm({ fields: [anyone] }, { other: { role: 'utility', name: '', email: '' } })).toEqual({ success: true, data: {} });
  });
});
