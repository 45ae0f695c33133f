/**
 * The disk store: DATA_DIR/files, the embedded mode's default. An upload is
 * written beside its final name (`.part`) and renamed inside the transaction
 * that records it, so a crash never leaves half a file under the final name.
 * Several instances can share it only through a folder they all mount.
 */
import { mkdir, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { diskPath, type FileKey, FileMissing, type FileStore, storeUnavailable } from './storage.js';

const isMissing = (e: unknown) => (e as { code?: string }).code === 'ENOENT';

export function diskStore(root: string): FileStore {
  const target = (key: FileKey) => diskPath(root, key);
  const missingOr = (key: FileKey, e: unknown) => (isMissing(e) ? new FileMissing('disk', key) : storeUnavailable('disk', e));
  return {
    kind: 'disk',
    async stage(key, bytes) {
      try {
        await mkdir(path.dirname(target(key)), { recursive: true });
        await writeFile(`${target(key)}.part`, bytes, { mode: 0o600 });
      } catch (e) {
        // A disk full or not writable: nothing of the part may stay.
        await rm(`${target(key)}.part`, { force: true }).catch(() => {});
        throw storeUnavailable('disk', e);
      }
    },
    async commit(_trx, key) {
      try {
        await rename(`${target(key)}.part`, target(key));
      } catch (e) {
        throw storeUnavailable('disk', e);
      }
    },
    async discard(key) {
      // Neither the part nor the file renamed just before a commit that failed.
      await Promise.all([rm(`${target(key)}.part`, { force: true }), rm(target(key), { force: true })]);
    },
    async open(_db, key) {
      // Opened before the answer starts, so a missing file is a clear error, not a cut response.
      try {
        const handle = await open(target(key), 'r');
        return handle.createReadStream();
      } catch (e) {
        throw missingOr(key, e);
      }
    },
    async read(_db, key) {
      try {
        return await readFile(target(key));
      } catch (e) {
        throw missingOr(key, e);
      }
    },
    async remove(_db, key) {
      await rm(target(key), { force: true });
    },
  };
}
