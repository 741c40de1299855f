import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import type { Readable, Writable } from "node:stream";
import type { SandboxInfo } from "../../session/log/tool-types";
import { getEnv } from "../../env";
import { hostView } from "../host-view";
import { hiddenServerFiles } from "../server-files";
import type { Answer, Failure, Request, ResultOf, Root, WorkerConfig } from "./protocol";
import { workerBwrapArgs } from "./view-args";

/** An operation the worker refused or could not do: `code` is an errno code or one of the worker's (protocol.ts). */
export class FileWorkerError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.message);
  }
  get code(): string {
    return this.failure.code;
  }
}

export type ViewSpec = {
  /** A worker kept for further calls under this key (a session's view); null: one worker for this call only. */
  key: string | null;
  roots: readonly Root[];
  /** Where the worker starts: the workspace. */
  cwd: string;
  sandbox: SandboxInfo;
};

/** How long a kept worker lives without a request: a session's calls come in bursts, a second apart. */
const IDLE_MS = 30_000;
/** Kept workers at most; the least recently used idle one ends first. */
const MAX_KEPT = 32;
const STDERR_KEPT = 2_000;

/** Where `npm install` and `npm start` put the worker (scripts/build-bundles.ts), relative to the server's folder. */
function workerDir(): string {
  return path.resolve(process.cwd(), "dist", "sandbox");
}

type Pending = { resolve: (v: unknown) => void; reject: (e: Error) => void };

class FileWorker {
  private readonly child: ChildProcess & { stdin: Writable; stdout: Readable; stderr: Readable };
  private readonly pending = new Map<number, Pending>();
  private next = 1;
  private stderr = "";
  private idle: NodeJS.Timeout | null = null;
  ended = false;
  readonly identity: string;

  constructor(
    spec: ViewSpec,
    private readonly onEnd: () => void,
  ) {
    this.identity = identity(spec.roots);
    const env = getEnv();
    const dir = workerDir();
    const script = path.join(dir, "fs-worker.cjs");
    if (!fs.existsSync(script))
      throw new FileWorkerError({
        code: "NOWORKER",
        message: "The file tools' worker is not built on this server: run npm install or npm start there.",
      });
    const shown = spec.roots.map((r) => r.path);
    const hide = hiddenServerFiles(
      { dataDir: env.dataDir, databaseUrl: env.DATABASE_URL, checkout: process.cwd() },
      spec.cwd,
      shown,
    );
    const config: WorkerConfig = { roots: [...spec.roots], hidden: hide.map((h) => h.path) };
    const node = fs.realpathSync(process.execPath);
    const argv = [script, JSON.stringify(config)];
    const [file, args] =
      spec.sandbox.available && spec.sandbox.bwrapPath
        ? [
            spec.sandbox.bwrapPath,
            [
              ...workerBwrapArgs({ view: hostView(), workerDir: dir, roots: spec.roots, hide, cwd: spec.cwd }),
              "--",
              node,
              ...argv,
            ],
          ]
        : [node, argv];
    this.child = spawn(file, args, {
      cwd: spec.cwd,
      env: { PATH: "/usr/bin:/bin" } as unknown as NodeJS.ProcessEnv,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    }) as FileWorker["child"];
    readline.createInterface({ input: this.child.stdout }).on("line", (line) => this.answer(line));
    this.child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
    });
    this.child.stdin.on("error", () => undefined);
    this.child.once("error", (error) => this.end(`could not start: ${error.message}`));
    this.child.once("exit", (code, signal) => this.end(`stopped (${signal ?? `exit ${code}`})`));
    this.rest();
  }

  request<R extends Request>(r: R, signal?: AbortSignal): Promise<ResultOf<R>> {
    if (this.ended) return Promise.reject(new FileWorkerError({ code: "EWORKER", message: "The file worker ended." }));
    signal?.throwIfAborted();
    const id = this.next++;
    this.busy();
    return new Promise<ResultOf<R>>((resolve, reject) => {
      const onAbort = () => this.kill();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.pending.set(id, {
        resolve: (v) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(v as ResultOf<R>);
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(signal?.aborted ? signal.reason : e);
        },
      });
      this.child.stdin.write(`${JSON.stringify({ ...r, id })}\n`);
    });
  }

  kill(): void {
    if (this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }

  /** Ends a kept worker that has nothing to do: closing its input is its signal to exit. */
  close(): void {
    if (this.pending.size > 0 || this.ended) return;
    this.child.stdin.end();
  }

  get busyNow(): boolean {
    return this.pending.size > 0;
  }

  private answer(line: string): void {
    let parsed: Answer;
    try {
      parsed = JSON.parse(line) as Answer;
    } catch {
      return;
    }
    const waiting = this.pending.get(parsed.id);
    if (!waiting) return;
    this.pending.delete(parsed.id);
    if (parsed.ok) waiting.resolve(parsed.result);
    else waiting.reject(new FileWorkerError(parsed.error));
    if (this.pending.size === 0) this.rest();
  }

  // A worker with work keeps the server's event loop; an idle one does not, and ends after IDLE_MS.
  private busy(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    this.child.ref();
    (this.child.stdout as unknown as { ref?: () => void }).ref?.();
  }

  private rest(): void {
    this.child.unref();
    (this.child.stdout as unknown as { unref?: () => void }).unref?.();
    (this.child.stderr as unknown as { unref?: () => void }).unref?.();
    (this.child.stdin as unknown as { unref?: () => void }).unref?.();
    if (this.idle) clearTimeout(this.idle);
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
  }

  private end(why: string): void {
    if (this.ended) return;
    this.ended = true;
    if (this.idle) clearTimeout(this.idle);
    const detail = this.stderr.trim() === "" ? "" : `: ${this.stderr.trim().split("\n").slice(-3).join(" ")}`;
    for (const p of this.pending.values())
      p.reject(new FileWorkerError({ code: "EWORKER", message: `The file worker ${why}${detail}` }));
    this.pending.clear();
    this.onEnd();
  }
}

const kept = new Map<string, FileWorker>();

/** What the roots are on the disk now: a worker shows the folders that were there when it started. */
function identity(roots: readonly Root[]): string {
  return roots
    .map((r) => {
      const s = fs.statSync(r.path, { throwIfNoEntry: false });
      return s ? `${s.dev}:${s.ino}` : "-";
    })
    .join(",");
}

function keep(key: string, spec: ViewSpec): FileWorker {
  const found = kept.get(key);
  // A root removed and made again (a workspace cloned afresh) is another folder: the kept worker would not see it.
  if (found && !found.ended && found.identity !== identity(spec.roots)) {
    found.kill();
    kept.delete(key);
  } else if (found && !found.ended) {
    // Most recently used last: the map's order is the eviction order.
    kept.delete(key);
    kept.set(key, found);
    return found;
  }
  if (kept.size >= MAX_KEPT) {
    for (const [k, w] of kept)
      if (!w.busyNow) {
        kept.delete(k);
        w.close();
        break;
      }
  }
  const worker: FileWorker = new FileWorker(spec, () => {
    if (kept.get(key) === worker) kept.delete(key);
  });
  kept.set(key, worker);
  return worker;
}

/**
 * Runs `fn` with a file worker for this view: the kept one for its key (started on first use), or a fresh one that
 * ends when `fn` is done.
 */
export async function withFileWorker<T>(
  spec: ViewSpec,
  fn: (ask: <R extends Request>(r: R) => Promise<ResultOf<R>>) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const worker = spec.key === null ? new FileWorker(spec, () => undefined) : keep(spec.key, spec);
  try {
    return await fn((r) => worker.request(r, signal));
  } finally {
    if (spec.key === null) worker.close();
  }
}

/** Starts the kept worker for this view if none runs; a failure to start is the first call's to report. */
export function warmFileWorker(spec: ViewSpec & { key: string }): void {
  try {
    keep(spec.key, spec);
  } catch {
    // Reported when a call needs it.
  }
}

/** Ends every kept worker (a server stopping, a test's end). */
export function closeFileWorkers(): void {
  for (const w of kept.values()) w.kill();
  kept.clear();
}
