import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * A network namespace of the partition test with a veth pair to this machine, plus TCP
 * forwarders so that its processes reach this machine's servers at the same 127.0.0.1 URLs as
 * everyone (PostgreSQL, Redis, and Kafka, whose broker advertises 127.0.0.1):
 *
 *   in the namespace  127.0.0.1:<port>  → forward.mjs → 10.231.<n>.1:<port> (this machine's end of the veth)
 *   on this machine   10.231.<n>.1:<port> → forward.mjs → 127.0.0.1:<port>
 *
 * `cut()` drops every packet arriving over the veth, on both ends (iptables INPUT rules scoped to
 * the two interfaces): a silent partition, as a pulled cable or a dead switch, in which no one is
 * told anything and connections simply stop hearing from the other side (this kernel has no
 * netem; `ip link set down` would instead fail sends at once with "network unreachable").
 * `heal()` removes the rules. Everything is named `tvshop-…` and removed by `destroy()`, which
 * also kills whatever still runs in the namespace.
 */
export interface Namespace {
  name: string;
  /** This machine's address on the veth (the namespace's processes' way out). */
  hostAddress: string;
  /** The namespace's address on the veth (how this machine reaches a server listening on 0.0.0.0 there). */
  address: string;
  /** The command prefix that runs a program inside the namespace. */
  wrap: string[];
  cut(): void;
  heal(): void;
  /** Starts a node script inside the namespace (stdin kept open: it is how the script learns its parent went away). */
  node(args: string[]): ChildProcess;
  destroy(): Promise<void>;
}

const forwarder = path.resolve(import.meta.dirname, 'forward.mjs');
const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
const attempt = (cmd: string, args: string[]) => {
  try {
    run(cmd, args);
  } catch {
    // Cleaning up: it may be gone already.
  }
};

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Names of this test's namespaces: `tvshop-part-<pid of the test process>`. */
const PREFIX = 'tvshop-part-';

/** Removes the namespaces (and their veth) of earlier runs whose test process is gone: a run killed before its clean-up. */
export function removeStaleNamespaces(): void {
  const names = run('ip', ['netns', 'list'])
    .split('\n')
    .map((l) => l.split(' ')[0]!)
    .filter((n) => n.startsWith(PREFIX));
  for (const name of names) {
    const pid = Number(name.slice(PREFIX.length));
    if (!Number.isInteger(pid) || alive(pid)) continue;
    killAll(name);
    attempt('ip', ['netns', 'del', name]);
    attempt('ip', ['link', 'del', `tvshop-h${pid}`]);
  }
}

function killAll(name: string): void {
  let pids: number[] = [];
  try {
    pids = run('ip', ['netns', 'pids', name]).split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return;
  }
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

/** Waits for a child's first `ready` line (forward.mjs). */
function ready(child: ChildProcess, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let err = '';
    child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (line.trim() === 'ready') resolve();
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code}: ${err.trim()}`)));
  });
}

/**
 * Makes the namespace and its link, and forwards `ports` (127.0.0.1:<port> inside → this
 * machine's 127.0.0.1:<port>). A server in the namespace that this machine must reach listens on
 * 0.0.0.0 there and is reached at `address`.
 */
export async function createNamespace(ports: number[]): Promise<Namespace> {
  const pid = process.pid;
  const name = `${PREFIX}${pid}`;
  // Interface names have at most 15 characters; the pid keeps runs apart.
  const hostIf = `tvshop-h${pid}`;
  const nsIf = `tvshop-n${pid}`;
  const subnet = `10.231.${pid % 250}`;
  const hostAddress = `${subnet}.1`;
  const address = `${subnet}.2`;
  const wrap = ['ip', 'netns', 'exec', name];
  const children: ChildProcess[] = [];
  const rules = (op: '-I' | '-D') =>
    [
      ['iptables', [op, 'INPUT', '-i', hostIf, '-j', 'DROP']],
      ['ip', [...wrap.slice(1), 'iptables', op, 'INPUT', '-i', nsIf, '-j', 'DROP']],
    ] as const;
  let isCut = false;
  const ns: Namespace = {
    name,
    hostAddress,
    address,
    wrap,
    cut() {
      if (isCut) return;
      for (const [cmd, args] of rules('-I')) run(cmd, [...args]);
      isCut = true;
    },
    heal() {
      if (!isCut) return;
      for (const [cmd, args] of rules('-D')) attempt(cmd, [...args]);
      isCut = false;
    },
    node(args) {
      const child = spawn(wrap[0]!, [...wrap.slice(1), process.execPath, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
      children.push(child);
      return child;
    },
    async destroy() {
      ns.heal();
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      killAll(name);
      attempt('ip', ['netns', 'del', name]);
      attempt('ip', ['link', 'del', hostIf]);
    },
  };
  try {
    run('ip', ['netns', 'add', name]);
    run('ip', ['link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf]);
    run('ip', ['link', 'set', nsIf, 'netns', name]);
    run('ip', ['addr', 'add', `${hostAddress}/30`, 'dev', hostIf]);
    run('ip', ['link', 'set', hostIf, 'up']);
    run('ip', [...wrap.slice(1), 'ip', 'addr', 'add', `${address}/30`, 'dev', nsIf]);
    run('ip', [...wrap.slice(1), 'ip', 'link', 'set', nsIf, 'up']);
    run('ip', [...wrap.slice(1), 'ip', 'link', 'set', 'lo', 'up']);
    const outside = spawn(process.execPath, [forwarder, hostAddress, '127.0.0.1', ...ports.map(String)], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    children.push(outside);
    const inside = ns.node([forwarder, '127.0.0.1', hostAddress, ...ports.map(String)]);
    await Promise.all([ready(outside, 'the forwarder on this machine'), ready(inside, 'the forwarder in the namespace')]);
  } catch (err) {
    await ns.destroy();
    throw err;
  }
  return ns;
}

/** The port of a URL (its scheme's default when it names none). */
export function portOf(url: string, fallback: number): number {
  const u = new URL(url);
  return u.port ? Number(u.port) : fallback;
}

/** True when this process may make namespaces (root, with `ip` and `iptables`). */
export function canPartition(): boolean {
  try {
    if (process.getuid?.() !== 0) return false;
    run('ip', ['netns', 'list']);
    run('iptables', ['-S', 'INPUT']);
    return readFileSync('/proc/self/status', 'utf8').includes('CapEff');
  } catch {
    return false;
  }
}
