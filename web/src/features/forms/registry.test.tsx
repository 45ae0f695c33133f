// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen } from '@testing-library/react';
import { describe, expect, test } from 'vitest';
import { FIELD_TYPES, type FieldDef, parseFormDefinition } from '../../../../core/forms/definition.js';
import en from '../../i18n/en.json' with { type: 'json' };
import es from '../../i18n/es.json' with { type: 'json' };
import { jsonResponse, mockFetch } from '../../test/utils.js';
import { FieldEditor } from './builder/FieldEditor.js';
import { createNode } from './builder/FieldsTab.js';
import { PROPERTY_EDITORS } from './builder/propertyEditors.js';
import { FIELD_REGISTRY, PROPERTY_EDITOR_KINDS, typesAllowedIn } from './registry.js';
import { FormRenderer } from './renderer/FormRenderer.js';
import { renderWithProviders } from './test/renderForm.js';

const lookup = (bundle: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundle);

/** A valid field of each type, as a form author would make it from the type picker. */
function sample(type: (typeof FIELD_TYPES)[number]): FieldDef {
  const node = createNode(type, new Set());
  const toField = (n: typeof node): FieldDef => ({ ...n.field, ...(n.children ? { children: n.children.map(toField) } : {}) }) as FieldDef;
  const field = toField(node);
  if (type === 'master_select') field.master = 'departamentos';
  if (type === 'select_multiple_external') field.external_url = 'https://options.example.org/list';
  if (type === 'repeat' || type === 'step') field.children = [{ name: `${type}_child`, type: 'text', label: 'Hijo', label_en: 'Child' }];
  if (type === 'stepper') field.children = [{ ...(field.children?.[0] as FieldDef), children: [{ name: 'inside_step', type: 'text', label: 'Dentro', label_en: 'Inside' }] }];
  return field;
}

describe('the field-type registry', () => {
  test('has one entry for every type of core/forms, with a label in both languages, an icon, a renderer and properties', () => {
    expect(Object.keys(FIELD_REGISTRY).sort()).toEqual([...FIELD_TYPES].sort());
    for (const type of FIELD_TYPES) {
      const spec = FIELD_REGISTRY[type];
      expect(spec.type, type).toBe(type);
      expect(typeof lookup(en, spec.labelKey), spec.labelKey).toBe('string');
      expect(typeof lookup(es, spec.labelKey), spec.labelKey).toBe('string');
      expect(spec.icon, type).toBeTruthy();
      expect(typeof spec.Renderer, type).toBe('function');
      expect(spec.properties.map((p) => p.key), type).toContain('name');
      for (const property of spec.properties) {
        expect(PROPERTY_EDITOR_KINDS, `${type}.${property.key}`).toContain(property.editor);
        expect(typeof lookup(en, property.labelKey), property.labelKey).toBe('string');
        expect(typeof lookup(es, property.labelKey), property.labelKey).toBe('string');
        if (property.helpKey) expect(typeof lookup(es, property.helpKey), property.helpKey).toBe('string');
      }
    }
    for (const kind of PROPERTY_EDITOR_KINDS) expect(typeof PROPERTY_EDITORS[kind], kind).toBe('function');
  });

  test("a new field of each type is one the shared definition check accepts once its type's own choice is made", () => {
    for (const type of FIELD_TYPES.filter((t) => t !== 'step')) {
      expect(() => parseFormDefinition({ name: 'F', fields: [sample(type)] }), type).not.toThrow();
    }
  });

  test('containers accept the children the definition allows', () => {
    expect(typesAllowedIn(null)).not.toContain('step');
    expect(typesAllowedIn('stepper')).toEqual(['step']);
    expect(typesAllowedIn('step')).not.toContain('stepper');
    expect(typesAllowedIn('repeat')).toContain('repeat');
    expect(typesAllowedIn('text')).toEqual([]);
  });

  test('every type renders in a form, and its editor shows its properties', () => {
    mockFetch(() => jsonResponse({ items: [], options: [] }));
    const fields = FIELD_TYPES.filter((t) => t !== 'step' && t !== 'stepper').map((type) => ({ ...sample(type), name: `f_${type}`, label_en: `Field ${type}` }));
    const form = renderWithProviders(<FormRenderer definition={{ fields }} />);
    for (const field of fields) {
      if (field.type === 'static') expect(screen.getByText(`Field ${field.type}`)).toBeInTheDocument();
      else expect(screen.getAllByText(new RegExp(`^Field ${field.type}`)).length, field.type).toBeGreaterThan(0);
    }
    form.unmount();

    for (const type of FIELD_TYPES) {
      const node = createNode(type, new Set());
      const { unmount } = renderWithProviders(<FieldEditor node={node} nodes={[node]} problems={[]} onChange={() => {}} />);
      expect(screen.getByRole('textbox', { name: 'Name (key)' }), type).toHaveValue(node.field.name);
      expect(screen.getAllByRole('textbox', { name: 'Label (English)' }).length, type).toBeGreaterThan(0);
      unmount();
    }
  }, 60_000);
});
