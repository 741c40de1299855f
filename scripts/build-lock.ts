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

/**
 * Runs fn while holding a lock folder in root. Several instances started from one checkout at once would
 * otherwise run `next build` together, and Next refuses a second concurrent build. A lock left by a dead
 * process is taken over.
 */
export function withBuildLock<T>(root: string, fn: () => T): T {
  const lock = path.join(root, ".next-build.lock");
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch {
      const pid = Number(fs.readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
      if (pid > 0 && !alive(pid)) fs.rmSync(lock, { recursive: true, force: true });
      else pause(500);
    }
  }
  fs.writeFileSync(path.join(lock, "pid"), String(process.pid));
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
