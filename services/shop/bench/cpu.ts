// Where a benchmark's CPU went, from Linux's /proc: a process's CPU time and memory, the
// PostgreSQL server's processes' CPU time (when the server runs on this machine), and how busy
// the machine's cores were. Elsewhere than Linux `usage` throws and the others answer null (the
// benchmarks print '?').
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on every Linux Node.js runs on). */
const TICKS = 100;

const fieldsOf = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (in parentheses) may hold spaces: the fields start after its last ')'.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};

/** A process's own CPU time (utime + stime), in ticks. */
const ownTicks = (fields: string[]) => Number(fields[11]) + Number(fields[12]);

/** CPU seconds (user and system) and RSS of a process. */
export function usage(pid: number): { cpu: number; rssMb: number; peakMb: number } {
  const cpu = ownTicks(fieldsOf(pid)) / TICKS;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { cpu, rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** CPU seconds (user and system) of a process so far, or null where /proc cannot say. */
export function processCpu(pid: number): number | null {
  try {
    return ownTicks(fieldsOf(pid)) / TICKS;
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by PostgreSQL on this machine, every cluster running here: each
 * process named `postgres` (a server, its backends, its background workers) with the time of
 * those that ended (a server reaps its backends, so theirs is in its children's time: a pool
 * closing an idle connection mid-run takes nothing away). Null when there is none, e.g. the
 * server runs elsewhere. A backend reaped between the reading of its server and its own is
 * missed once: rare, and one connection's time at most.
 */
export function postgresCpu(): number | null {
  let ticks = 0;
  let found = false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() !== 'postgres') continue;
      const fields = fieldsOf(pid);
      // Its own, and cutime + cstime: the ended children it waited for.
      ticks += ownTicks(fields) + Number(fields[13]) + Number(fields[14]);
      found = true;
    } catch {
      // ended while being read
    }
  }
  return found ? ticks / TICKS : null;
}

/** Busy and total CPU seconds of the whole machine so far (all cores), or null without /proc/stat. */
export function machineCpu(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    // cpu  user nice system idle iowait irq softirq steal ...
    const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line
      .trim()
      .split(/\s+/)
      .slice(1, 9)
      .map(Number);
    const busy = user + nice + system + irq + softirq + steal;
    return { busy: busy / TICKS, total: (busy + idle + iowait) / TICKS };
  } catch {
    return null;
  }
}

/** Whether a PostgreSQL server URL names this machine (its CPU can then be read here). */
export const isLocalServer = (url: string): boolean => {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return ['127.0.0.1', 'localhost', '::1', os.hostname()].includes(host) || host.startsWith('127.') || host === '';
};
