import { describe, expect, it } from 'vitest';
import type { MailState } from '../../../core/api/mail.js';
import type { Actor } from '../acl/policy.js';
import { assertResend, mailActions } from './policy.js';

/**
 * The outbox policy as a table: the role's rights on reenviarcorreos, the
 * message's state, whether SMTP is configured, and whether Resend is
 * offered. Seeing the outbox is the routes' target (show); another tenant's
 * message is never found (outbox.api.test.ts "who may").
 */
const actorWith = (actions: string[], superAdmin = false): Actor => ({
  userId: 1,
  entityId: 1,
  entity: { docnumber: '1', name: 'Agency' },
  name: 'Someone',
  email: 'someone@example.test',
  role: { id: 1, code: 'custom', name: 'custom', superAdmin },
  rules: new Map([['reenviarcorreos', new Set(actions)]]),
  language: 'en',
  timeZone: 'UTC',
  sessionId: 1,
  projectId: null,
  idleSeconds: 3000,
});

const ROLES = { reader: actorWith(['show']), resender: actorWith(['show', 'update']), support: actorWith([], true) } as const;

const TABLE: Array<[role: keyof typeof ROLES, state: MailState, smtp: boolean, offered: boolean, refusal?: string]> = [
  ['reader', 'failed', true, false, 'FORBIDDEN'],
  ['resender', 'failed', true, true],
  ['resender', 'kept', true, true],
  ['resender', 'queued', true, false, 'MAIL_NOT_RESENDABLE'],
  ['resender', 'sent', true, false, 'MAIL_NOT_RESENDABLE'],
  ['resender', 'failed', false, false, 'MAIL_NOT_RESENDABLE'],
  ['support', 'kept', true, true],
  ['support', 'sent', true, false, 'MAIL_NOT_RESENDABLE'],
];

describe('mail policy', () => {
  it.each(TABLE)('%s, a %s message, SMTP %s: resend offered %s', (role, state, smtp, offered, refusal) => {
    expect(mailActions(ROLES[role], { state }, smtp)).toEqual(offered ? ['resend'] : []);
    if (offered) expect(() => assertResend(ROLES[role], { state }, smtp)).not.toThrow();
    else expect(() => assertResend(ROLES[role], { state }, smtp)).toThrow(refusal);
  });
});
