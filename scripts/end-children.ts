// The prepare step's own children (tsx's esbuild service above all) outlive it by a moment: it exits, they see their
// pipes close and exit too, orphaned. Where the machine's first process does not reap orphans (a container whose
// init is a plain program, as in CI), each stays a zombie in the server's process group for good. So the prepare
// step ends its children and reaps them (Node does, for the children it started) before it exits.
import fs from "node:fs";

const REAP_WAIT_MS = 2_000;

/** This process's children (Linux: every thread's, from /proc); elsewhere none are known. */
function children(): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync("/proc/self/task");
  } catch {
    return [];
  }
  const pids = new Set<number>();
  for (const task of tasks) {
    let listed = "";
    try {
      listed = fs.readFileSync(`/proc/self/task/${task}/children`, "utf8");
    } catch {
      continue;
    }
    for (const pid of listed.split(/\s+/).filter(Boolean)) pids.add(Number(pid));
  }
  return [...pids];
}

/** Ends this process's children and waits (a bounded time) until they are reaped. */
export async function endChildren(): Promise<void> {
  const pids = children();
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  const deadline = Date.now() + REAP_WAIT_MS;
  while (children().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
}
