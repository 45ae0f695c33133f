import { readFileSync } from 'node:fs';

/** Facts about a process read from /proc (Linux). Undefined when it is gone. */
export interface ProcInfo {
  pid: number;
  state: string;
  ppid: number;
  /** Clock ticks since boot; with the pid it names one process for good. */
  startTime: string;
}

export function procInfo(pid: number): ProcInfo | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may hold spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { pid, state: fields[0], ppid: Number(fields[1]), startTime: fields[19] };
  } catch {
    return undefined;
  }
}

export function procArgs(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Alive and not a zombie. */
export function isRunning(pid: number): boolean {
  const info = procInfo(pid);
  return !!info && info.state !== 'Z' && info.state !== 'X';
}
