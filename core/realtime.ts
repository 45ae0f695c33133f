/**
 * The realtime contract between the server (server/modules/realtime) and the
 * browser (web/src/lib/realtime): rooms a page may join, what the server
 * sends, and what a client may send. Events carry ids, never records: the
 * browser refetches through the normal API, which checks access.
 */
import { z } from 'zod';

/** Where the socket lives (same port as the API). */
export const REALTIME_PATH = '/socket.io';

/** Rooms a page asks to join; each join is authorised as the REST read of that record. `review` is a case's document review. */
export const ROOM_KINDS = ['case', 'task', 'review'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];
export const roomSchema = z.strictObject({ kind: z.enum(ROOM_KINDS), id: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export type Room = z.infer<typeof roomSchema>;
export const roomName = (r: Room): string => `${r.kind}:${r.id}`;

/** Kinds of records whose change the server announces. */
export const CHANGE_KINDS = ['case', 'task', 'comment', 'checklist', 'notification', 'import', 'project', 'party', 'payment'] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

/**
 * `changed`: records of one kind changed. `ids` are the records' ids,
 * `caseIds` the cases they belong to. `many` means too many to list: refetch
 * everything of that kind. `project`: a project's settings changed (ids are
 * project ids): every page of the tenant refetches its public settings.
 */
export interface ChangedEvent {
  kind: ChangeKind;
  ids: number[];
  caseIds: number[];
  many?: boolean;
}

export interface PresenceUser {
  id: number;
  name: string;
}

/** `presence`: who has a room open (sent to the room on every join and leave). */
export interface PresenceEvent {
  room: string;
  users: PresenceUser[];
}

/** The document being shown in a review room, and by whom. */
export interface ShownDocument {
  fileId: string;
  by: PresenceUser;
}

/** The answer to `join`: refused, or the room's current state (a late joiner sees what the others see). */
export type JoinAck =
  | { ok: true; room: string; users: PresenceUser[]; shown: ShownDocument | null }
  | { ok: false; code: 'NOT_FOUND' | 'BAD_REQUEST' | 'RATE_LIMITED' };

export type Ack = { ok: true } | { ok: false; code: 'NOT_FOUND' | 'BAD_REQUEST' | 'RATE_LIMITED' | 'FORBIDDEN' };

/** Document review events a client sends (spec: show_doc, cancel_show_doc, accept_doc, refresh_page) and their payloads. */
export const showDocSchema = z.strictObject({ caseId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER), fileId: z.string().min(1).max(100) });
export const caseOnlySchema = z.strictObject({ caseId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER) });
export const acceptDocSchema = z.strictObject({
  caseId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  code: z.string().trim().min(1).max(100),
  fileId: z.string().min(1).max(100).optional(),
});

/** What the server sends to a review room. */
export interface ReviewEvents {
  available_docs: { caseId: number };
  show_doc: { caseId: number; fileId: string; by: PresenceUser };
  cancel_show_doc: { caseId: number; by: PresenceUser };
  accept_doc: { caseId: number; code: string; fileId: string | null; by: PresenceUser };
  refresh_page: { caseId: number; by: PresenceUser };
}

/** Events one socket may send per window before it is refused; past the hard limit it is disconnected. */
export const SOCKET_RATE = { events: 30, windowMs: 10_000, disconnectAfter: 200 } as const;
