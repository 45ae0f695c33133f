/**
 * Who may join which realtime room: exactly who may read that record through
 * the REST API (the same finders, with the tenant and the record visibility),
 * re-checked on every join with the session read afresh.
 */
import type { Room } from '../../../core/realtime.js';
import type { Db } from '../../db/pool.js';
import type { Actor } from '../acl/policy.js';
import { isStaff } from '../cases/policy.js';
import { mayReadCase } from '../cases/repo.js';
import { mayReadTask } from '../tasks/repo.js';

export async function mayJoin(db: Db, actor: Actor, room: Room): Promise<boolean> {
  switch (room.kind) {
    case 'case':
      return mayReadCase(db, actor, room.id);
    case 'task':
      return mayReadTask(db, actor, room.id);
    case 'review':
      // Reviewing documents together is staff work on a case they may read.
      return isStaff(actor) && (await mayReadCase(db, actor, room.id));
  }
}

/** The rooms every socket of this actor is in from the start: its tenant, its user, its session, and staff its tenant's staff room. */
export function personalRooms(actor: Actor): string[] {
  return [
    `tenant:${actor.entityId}`,
    `user:${actor.userId}`,
    `session:${actor.sessionId}`,
    ...(isStaff(actor) ? [`staff:${actor.entityId}`] : []),
  ];
}
