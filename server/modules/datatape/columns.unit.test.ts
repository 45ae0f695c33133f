import { describe, expect, it } from 'vitest';
import type { FormDefinition } from '../../../core/forms/definition.js';
import { type ApplicationRow, availableColumns, cellOf, defaultColumns, flatten, flatWidth, repeatPaths } from './columns.js';

const form = {
  name: 'Application',
  description: '',
  layout: 'stepper',
  languages: ['en', 'es'],
  fields: [
    {
      name: 'steps', type: 'stepper', label: 'Pasos', children: [
        {
          name: 'one', type: 'step', label: 'Uno', children: [
            { name: 'intro', type: 'static', label: 'Bienvenida' },
            { name: 'firstName', type: 'text', label: 'Nombre', label_en: 'First name' },
            { name: 'rent', type: 'currency', label: 'Renta', label_en: 'Rent', label_report: 'Renta mensual' },
          ],
        },
        {
          name: 'two', type: 'step', label: 'Dos', children: [
            {
              name: 'members', type: 'repeat', label: 'Integrantes', label_en: 'Members', children: [
                { name: 'name', type: 'text', label: 'Nombre', label_en: 'Name' },
                { name: 'pets', type: 'repeat', label: 'Mascotas', label_en: 'Pets', children: [{ name: 'kind', type: 'text', label: 'Tipo', label_en: 'Kind' }] },
                { name: 'age', type: 'number', label: 'Edad', label_en: 'Age' },
              ],
            },
            { name: 'proof', type: 'file', label: 'Soporte', label_en: 'Proof', accept: ['pdf'] },
          ],
        },
      ],
    },
  ],
} as FormDefinition;

const row = (data: Record<string, unknown>): ApplicationRow => ({
  id: 1, serial: '2026-11-000001', state: 'PENDING', created_at: new Date('2026-11-01T10:00:00Z'), doc_date: new Date('2026-11-02T10:00:00Z'),
  updated_at: new Date('2026-11-03T10:00:00Z'), closed_at: null, applicant: 'Ana Díaz', owner_name: 'Ana', owner_email: 'ana@example.org', data,
});

describe('the columns a form offers', () => {
  it('lists the case columns, then every field in form order (steps flattened, static text left out, repeat groups as paths)', () => {
    const available = availableColumns(form);
    expect(available.slice(0, 9).map((c) => c.source)).toEqual([
      'case:number', 'case:state', 'case:createdAt', 'case:submittedAt', 'case:updatedAt', 'case:closedAt', 'case:applicant', 'case:ownerName', 'case:ownerEmail',
    ]);
    expect(available.slice(0, 2).map((c) => [c.header, c.header_en])).toEqual([['Número de radicación', 'Application number'], ['Estado', 'State']]);
    expect(available.slice(9)).toEqual([
      { source: 'field:firstName', header: 'Nombre', header_en: 'First name', kind: 'field', type: 'text', repeat: null },
      // The report label is the Spanish header when the form has one.
      { source: 'field:rent', header: 'Renta mensual', header_en: 'Rent', kind: 'field', type: 'currency', repeat: null },
      { source: 'field:members.name', header: 'Integrantes – Nombre', header_en: 'Members – Name', kind: 'field', type: 'text', repeat: 'members' },
      { source: 'field:members.pets.kind', header: 'Integrantes – Mascotas – Tipo', header_en: 'Members – Pets – Kind', kind: 'field', type: 'text', repeat: 'members.pets' },
      { source: 'field:members.age', header: 'Integrantes – Edad', header_en: 'Members – Age', kind: 'field', type: 'number', repeat: 'members' },
      { source: 'field:proof', header: 'Soporte', header_en: 'Proof', kind: 'field', type: 'file', repeat: null },
    ]);
    expect(defaultColumns(available)[9]).toEqual({ source: 'field:firstName', header: 'Nombre', header_en: 'First name' });
  });
});

describe('flattening', () => {
  // In this order (not the form's): name and age side by side.
  const chosen = ['case:number', 'case:state', 'field:firstName', 'field:members.name', 'field:members.age', 'field:members.pets.kind', 'field:proof'];
  const defaults = defaultColumns(availableColumns(form));
  const columns = chosen.map((source) => defaults.find((c) => c.source === source) as (typeof defaults)[number]);
  const counts = new Map([['members', 2], ['members.pets', 2]]);

  it('needs the row counts of each group, outer ones too', () => {
    expect(repeatPaths(columns).sort()).toEqual(['members', 'members.pets']);
  });

  it('numbers the fields of a group per row, consecutive ones together, row by row', () => {
    const flat = flatten(columns, counts, 'keys');
    expect(flat.map((c) => c.header)).toEqual([
      'case_number', 'case_state', 'firstName',
      // name and age are consecutive in the list: numbered together; pets.kind follows, after its group changed.
      'members_1_name', 'members_1_age', 'members_2_name', 'members_2_age',
      'members_1_pets_1_kind', 'members_1_pets_2_kind', 'members_2_pets_1_kind', 'members_2_pets_2_kind',
      'proof',
    ]);
    expect(flatWidth(columns, counts)).toBe(flat.length);
    expect(flatten(columns, counts, 'en').map((c) => c.header).slice(3, 8)).toEqual(['Members – Name 1', 'Members – Age 1', 'Members – Name 2', 'Members – Age 2', 'Members – Pets – Kind 1.1']);
    expect(flatten(columns, counts, 'es').map((c) => c.header).slice(0, 4)).toEqual(['Número de radicación', 'Estado', 'Nombre', 'Integrantes – Nombre 1']);
  });

  it('reads each cell from its row, empty where a row is missing; states in the header language, codes with keys', () => {
    const application = row({
      firstName: 'Ana',
      members: [{ name: 'Ana', age: 40, pets: [{ kind: 'dog' }, { kind: 'cat' }] }, { name: 'Leo', age: 9 }],
      proof: [{ id: 'f1', name: 'lease.pdf', size: 10 }, { id: 'f2', name: 'id.pdf' }],
    });
    expect(flatten(columns, counts, 'keys').map((c) => c.get(application))).toEqual([
      '2026-11-000001', 'PENDING', 'Ana', 'Ana', 40, 'Leo', 9, 'dog', 'cat', null, null, 'lease.pdf; id.pdf',
    ]);
    expect(flatten(columns, counts, 'es')[1]?.get(application)).toBe('Pendiente');
    expect(flatten(columns, counts, 'en')[1]?.get(application)).toBe('Pending');
  });

  it('a group no application fills takes no column; a wrong shape is an empty cell, not an error', () => {
    expect(flatten(columns, new Map(), 'keys').map((c) => c.header)).toEqual(['case_number', 'case_state', 'firstName', 'proof']);
    const odd = row({ members: 'not a list', firstName: { nested: true } });
    const flat = flatten(columns, counts, 'keys');
    expect(flat.map((c) => c.get(odd))).toEqual(['2026-11-000001', 'PENDING', '{"nested":true}', null, null, null, null, null, null, null, null, null]);
  });

  it('turns lists and objects into one cell', () => {
    expect([cellOf(['a', 'b']), cellOf([1, 2]), cellOf({ a: 1 }), cellOf(undefined), cellOf(false)]).toEqual(['a; b', '1; 2', '{"a":1}', null, false]);
  });
});
