/**
 * The gallery: ready-made applications, each a bundle kept beside this file
 * (`apps/<key>.json`, checked when the server loads them: a broken one is a
 * bug, found by the gallery's tests). "Rental assistance" is the demo
 * tenant's application exported by `exportProject` (see apps/README.md);
 * "Title clearance" was written by hand.
 */
import type { z } from 'zod';
import type { galleryAppSchema } from '../../../core/api/gallery.js';
import rental from './apps/rental-assistance.json' with { type: 'json' };
import title from './apps/title-clearance.json' with { type: 'json' };
import { type CheckedBundle, checkBundle } from './bundle.js';

const SOURCES: unknown[] = [rental, title];

let loaded: Map<string, CheckedBundle> | undefined;

/** The gallery's applications by key, checked once. */
export function galleryApps(): Map<string, CheckedBundle> {
  if (!loaded) {
    loaded = new Map();
    for (const source of SOURCES) {
      const checked = checkBundle(source);
      const key = checked.bundle.app?.key;
      if (!key) throw new Error('a gallery bundle needs its app.key');
      loaded.set(key, checked);
    }
  }
  return loaded;
}

/** One card of the gallery: what the application is and what it contains. */
export function galleryCard({ bundle }: CheckedBundle): z.infer<typeof galleryAppSchema> {
  const app = bundle.app as NonNullable<typeof bundle.app>;
  return {
    key: app.key,
    title: app.title,
    description: app.description,
    contains: {
      forms: bundle.forms.length,
      masters: bundle.masters.length,
      protocols: bundle.protocols.length,
      tasks: bundle.protocols.reduce((n, p) => n + p.definition.tasks.length, 0),
      teams: bundle.teams.length,
      mailTemplates: bundle.mailTemplates.length,
    },
    protocols: bundle.protocols.map((p) => ({ code: p.code, name: p.name, nameEn: p.nameEn })),
  };
}
