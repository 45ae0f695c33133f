/**
 * A landing page: what the applicant's own view of the application shows
 * (cases/portal.ts `timelineOf`: its status in plain words, dates and
 * public steps, the documents asked by name), with its number, programme and
 * entity. Never a task's name, who did it, a note, or the form's data.
 */
import type { LandingPage } from '../../../core/api/landing.js';
import type { Db } from '../../db/pool.js';
import { AppError } from '../../errors.js';
import { timelineOf } from '../cases/portal.js';
import { publicLogo } from '../public/policy.js';
import { findLandingCase } from './repo.js';

export async function landingPage(db: Db, docnumber: string, code: string): Promise<LandingPage> {
  const c = await findLandingCase(db, docnumber, code);
  if (!c) throw new AppError('NOT_FOUND');
  const timeline = await timelineOf(db, c.entity_id, c);
  return {
    entity: { name: c.entity_name, docnumber: c.docnumber, logo: publicLogo(c.logo) },
    number: c.serial,
    programme: { es: c.public_title_es || c.protocol_name, en: c.public_title_en || c.protocol_name_en || c.protocol_name },
    status: timeline.status,
    submittedAt: timeline.submittedAt,
    updatedAt: timeline.updatedAt,
    events: timeline.events,
    requestedDocuments: timeline.requestedDocuments.map((d) => ({ name: d.name })),
  };
}
