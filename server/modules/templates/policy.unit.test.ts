import { describe, expect, it } from 'vitest';
import type { TemplateActionName } from '../../../core/api/templates.js';
import type { Actor } from '../acl/policy.js';
import { assertTemplateAction, templateActions } from './policy.js';

/**
 * The template policy as a table: the role's rights on plantillas_correo,
 * whether the template is its event's default, the action, and whether it is
 * allowed. Seeing templates at all is the routes' target (show); a template
 * of another tenant is never found (templates.api.test.ts "who may").
 */
const actorWith = (actions: string[], superAdmin = false): Actor => ({
  userId: 1,
  entityId: 1,
  entity: { docnumber: '1', name: 'Agency' },
  name: 'Someone',
  email: 'someone@example.test',
  role: { id: 1, code: 'custom', name: 'custom', superAdmin },
  rules: new Map([['plantillas_correo', new Set(actions)]]),
  language: 'en',
  timeZone: 'UTC',
  sessionId: 1,
  projectId: null,
  idleSeconds: 3000,
});

const ROLES = {
  reader: actorWith(['show']),
  editor: actorWith(['show', 'update']),
  coordinator: actorWith(['show', 'create', 'update', 'delete']),
  support: actorWith([], true),
} as const;

const TABLE: Array<[role: keyof typeof ROLES, isDefault: boolean, action: TemplateActionName, allowed: boolean]> = [
  ['reader', false, 'edit', false],
  ['reader', false, 'delete', false],
  ['reader', false, 'makeDefault', false],
  ['editor', false, 'edit', true],
  ['editor', false, 'makeDefault', true],
  ['editor', false, 'delete', false],
  ['editor', true, 'edit', true],
  ['editor', true, 'makeDefault', false],
  ['coordinator', false, 'delete', true],
  ['coordinator', true, 'delete', false],
  ['coordinator', true, 'edit', true],
  ['support', false, 'delete', true],
  ['support', true, 'delete', false],
];

describe('template policy', () => {
  it.each(TABLE)('%s on a template (default: %s) may %s: %s', (role, isDefault, action, allowed) => {
    expect(templateActions(ROLES[role], { isDefault }).includes(action)).toBe(allowed);
    if (allowed) expect(() => assertTemplateAction(ROLES[role], { isDefault }, action)).not.toThrow();
    else expect(() => assertTemplateAction(ROLES[role], { isDefault }, action)).toThrow();
  });

  it('deleting the default is refused with its own code to whoever may delete, FORBIDDEN to anyone else', () => {
    expect(() => assertTemplateAction(ROLES.coordinator, { isDefault: true }, 'delete')).toThrow(expect.objectContaining({ code: 'TEMPLATE_IS_DEFAULT' }));
    expect(() => assertTemplateAction(ROLES.reader, { isDefault: true }, 'delete')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
  });
});
