/**
 * Where files live on disk: per entity under DATA_DIR/files
 * (`<entity>/[public/]<id>.<ext>`, the spec's archivos/{entity}/[public/]{file}).
 */
import path from 'node:path';

export const MAX_UPLOAD_MB = 20;
export const MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024;

/** A folder name from the entity's name, made unique by its document number. */
export function entityFolder(entity: { name: string; docnumber: string }): string {
  const slug = entity.name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `${slug || 'entity'}-${entity.docnumber.replace(/[^A-Za-z0-9]/g, '')}`;
}

/** The file's place under the files root. */
export const diskPath = (root: string, folder: string, isPublic: boolean, id: string, ext: string) => path.join(root, folder, ...(isPublic ? ['public'] : []), `${id}.${ext}`);
