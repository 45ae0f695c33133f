/**
 * A project's logo and favicon: checked by their CONTENT (the first bytes),
 * never by the name or type the browser gave: PNG, JPEG, WebP or GIF, and ICO
 * for the favicon. SVG is refused whatever it is called, since it can carry
 * script. Capped (core BRANDING_LIMITS), counted against the tenant's disk
 * quota as any file (a `files` row, public), written to the configured file
 * store all or nothing (files/stores.ts), and served by the projects module
 * (`/api/projects/:id/branding/:file`) only while a project names it.
 * Replacing or removing one deletes the old file.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import { BRANDING_LIMITS, BRANDING_TYPES, type BrandingKind } from '../../../core/api/applicationSettings.js';
import type { Db } from '../../db/pool.js';
import type { Database } from '../../db/types.js';
import { AppError } from '../../errors.js';
import type { Actor } from '../acl/policy.js';
import { insertFile, lockDiskUse, tenantFolder } from '../files/repo.js';
import type { FileKey, StoreKind } from '../files/storage.js';
import { type FileStores, removeStoredBytes, storeNewFile } from '../files/stores.js';
import { lockProject } from './application.js';

interface ImageType {
  name: string;
  ext: string;
  mime: string;
}

const startsWith = (b: Buffer, sig: number[], offset = 0) => b.length >= offset + sig.length && sig.every((byte, i) => b[offset + i] === byte);
const ascii = (b: Buffer, text: string, offset = 0) => b.subarray(offset, offset + text.length).toString('latin1') === text;

const IMAGE_TYPES: Array<ImageType & { test: (b: Buffer) => boolean }> = [
  { name: 'PNG', ext: 'png', mime: 'image/png', test: (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { name: 'JPEG', ext: 'jpg', mime: 'image/jpeg', test: (b) => startsWith(b, [0xff, 0xd8, 0xff]) },
  { name: 'GIF', ext: 'gif', mime: 'image/gif', test: (b) => ascii(b, 'GIF87a') || ascii(b, 'GIF89a') },
  { name: 'WebP', ext: 'webp', mime: 'image/webp', test: (b) => ascii(b, 'RIFF') && ascii(b, 'WEBP', 8) },
  // An icon directory: reserved 0, type 1 (icon), at least one image.
  { name: 'ICO', ext: 'ico', mime: 'image/x-icon', test: (b) => startsWith(b, [0x00, 0x00, 0x01, 0x00]) && b.length >= 6 && b.readUInt16LE(4) > 0 },
];

/** What the bytes are, when they are an image the kind takes; undefined otherwise (SVG, HTML, anything else). */
export function brandingImageType(bytes: Buffer, kind: BrandingKind): ImageType | undefined {
  const found = IMAGE_TYPES.find((t) => t.test(bytes));
  if (!found || !BRANDING_TYPES[kind].includes(found.name)) return undefined;
  return { name: found.name, ext: found.ext, mime: found.mime };
}

/** The refusal of an upload that is too large or not an accepted image, in the caller's language. */
export function checkBrandingImage(bytes: Buffer, kind: BrandingKind): ImageType {
  if (bytes.length > BRANDING_LIMITS[kind]) throw new AppError('BRANDING_IMAGE_TOO_LARGE', { max: BRANDING_LIMITS[kind] / 1024 });
  const type = bytes.length > 0 ? brandingImageType(bytes, kind) : undefined;
  if (!type) throw new AppError('BRANDING_IMAGE_INVALID', { accepted: BRANDING_TYPES[kind].join(', ') });
  return type;
}

const column = { logo: { url: 'logo', file: 'logo_file_id' }, favicon: { url: 'favicon', file: 'favicon_file_id' } } as const;

/** The public address of a project's image (a new file id each upload, so it may be cached for good). */
export const brandingUrl = (uid: string, fileId: string, ext: string) => `/api/projects/${uid}/branding/${fileId}.${ext}`;

/** The files row of a logo or favicon that is no longer shown, deleted; its bytes' store and key, to remove them after the commit. */
async function deleteBrandingFile(trx: Transaction<Database>, actor: Actor, folder: string, fileId: string | null): Promise<{ store: StoreKind; key: FileKey } | undefined> {
  if (!fileId) return undefined;
  const gone = await trx.deleteFrom('files').where('id', '=', fileId).where('entity_id', '=', actor.entityId).returning(['id', 'extension', 'public', 'store']).executeTakeFirst();
  return gone && { store: gone.store, key: { id: gone.id, entityId: actor.entityId, folder, public: gone.public, extension: gone.extension } };
}

/** Stores the image as the project's logo or favicon, replacing (and deleting) the one before. */
export async function uploadBranding(db: Db, actor: Actor, files: FileStores, uid: string | undefined, kind: BrandingKind, bytes: Buffer): Promise<void> {
  const type = checkBrandingImage(bytes, kind);
  const id = randomUUID();
  const folder = await tenantFolder(db, actor);
  const key = { id, entityId: actor.entityId, folder, public: true, extension: type.ext };
  const replaced = await storeNewFile(db, files, key, bytes, async (trx, store) => {
    const project = await lockProject(trx, actor, uid);
    const { usedBytes, quotaBytes } = await lockDiskUse(trx, actor);
    if (usedBytes + bytes.length > quotaBytes) throw new AppError('QUOTA_FULL');
    await insertFile(trx, actor, {
      id, name: `${kind}.${type.ext}`, extension: type.ext, mime: type.mime, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex'), public: true, store,
    });
    const old = project[column[kind].file];
    await trx.updateTable('projects').set({ [column[kind].url]: brandingUrl(project.uid, id, type.ext), [column[kind].file]: id }).where('id', '=', project.id).execute();
    return deleteBrandingFile(trx, actor, folder, old);
  });
  if (replaced) await removeStoredBytes(db, files, replaced.store, replaced.key);
}

/** The project shows no logo (or favicon) any more; its file is deleted. */
export async function removeBranding(db: Db, actor: Actor, files: FileStores, uid: string | undefined, kind: BrandingKind): Promise<void> {
  const folder = await tenantFolder(db, actor);
  const gone = await db.transaction().execute(async (trx) => {
    const project = await lockProject(trx, actor, uid);
    const old = project[column[kind].file];
    await trx.updateTable('projects').set({ [column[kind].url]: null, [column[kind].file]: null }).where('id', '=', project.id).execute();
    return deleteBrandingFile(trx, actor, folder, old);
  });
  if (gone) await removeStoredBytes(db, files, gone.store, gone.key);
}
