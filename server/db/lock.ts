import { accessSync, closeSync, constants, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from '../startup-error.js';
import { isRunning, procInfo } from './procfs.js';

interface LockBody {
  pid: number;
  startTime: string;
}

/**
 * One running instance per DATA_DIR. The lock file holds our pid and start
 * time (so a reused pid is not mistaken for us), is created exclusively, and
 * is taken over only when its owner is dead.
 */
export class DataDirLock {
  private constructor(readonly file: string) {}

  static acquire(dataDir: string): DataDirLock {
    try {
      mkdirSync(dataDir, { recursive: true });
      accessSync(dataDir, constants.W_OK | constants.X_OK);
    } catch {
      throw new StartupError(`DATA_DIR ${dataDir} is not writable; choose a directory this user can write, or fix its permissions.`);
    }
    const file = path.join(dataDir, 'app.lock');
    const body = JSON.stringify({ pid: process.pid, startTime: procInfo(process.pid)?.startTime ?? '' });
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, body);
      closeSync(fd);
      return new DataDirLock(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const owner = readOwner(file);
    if (owner && isRunning(owner.pid) && procInfo(owner.pid)?.startTime === owner.startTime) {
      throw new StartupError(
        `Another instance (pid ${owner.pid}) is already running on DATA_DIR ${dataDir}; stop it first or set another DATA_DIR.`,
      );
    }
    const tmp = `${file}.${process.pid}`;
    writeFileSync(tmp, body, { mode: 0o600 });
    renameSync(tmp, file);
    if (readOwner(file)?.pid !== process.pid) {
      throw new StartupError(`Another instance took DATA_DIR ${dataDir} at the same moment; try again.`);
    }
    return new DataDirLock(file);
  }

  /** Remove the lock only if it is still ours. */
  release(): void {
    if (readOwner(this.file)?.pid === process.pid) {
      try {
        unlinkSync(this.file);
      } catch {
        // already gone
      }
    }
  }
}

function readOwner(file: string): LockBody | undefined {
  try {
    const body = JSON.parse(readFileSync(file, 'utf8'));
    return typeof body?.pid === 'number' ? body : undefined;
  } catch {
    return undefined;
  }
}
