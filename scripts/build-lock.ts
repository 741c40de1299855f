import fs from "node:fs";
import path from "node:path";

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// A lock folder without a readable pid this old was left by a process killed while taking it.
const ORPHAN_MS = 30_000;

function stale(lock: string): boolean {
  let pid = 0;
  let age = 0;
  try {
    age = Date.now() - fs.statSync(lock).mtimeMs;
    pid = Number(fs.readFileSync(path.join(lock, "pid"), "utf8")) || 0;
  } catch {
    // Gone (released meanwhile) or no pid file yet: decided by age below.
  }
  return pid > 0 ? !alive(pid) : age > ORPHAN_MS;
}

/**
 * Runs fn while holding a lock folder in root. Several instances started from one checkout at once would
 * otherwise run `next build` together, and Next refuses a second concurrent build. The folder appears with its
 * pid already inside (made aside, then renamed into place), so no one ever sees a lock without its owner; a lock
 * left by a dead process is taken over.
 */
export function withBuildLock<T>(root: string, fn: () => T): T {
  const lock = path.join(root, ".next-build.lock");
  for (;;) {
    const aside = fs.mkdtempSync(path.join(root, ".next-build.lock-"));
    fs.writeFileSync(path.join(aside, "pid"), String(process.pid));
    try {
      fs.renameSync(aside, lock);
      break;
    } catch {
      fs.rmSync(aside, { recursive: true, force: true });
      if (stale(lock)) fs.rmSync(lock, { recursive: true, force: true });
      else pause(500);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
