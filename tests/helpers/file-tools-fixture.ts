import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { ToolError, type ToolContext } from "../../lib/tools/types";
import { sandboxForSuite } from "./sandbox";

/** A temp root holding `ws/` (the workspace) and `outside/` (a sibling the tools must treat as external). */
export type FileFixture = {
  root: string;
  ws: string;
  outside: string;
  /** A fresh context (new callId) for the workspace, without the sandbox: the tools then reach the workspace only. */
  ctx(overrides?: Partial<ToolContext>): ToolContext;
  /** The same with the real sandbox (bubblewrap): outside folders a person allowed are reachable, confined. */
  boxed(overrides?: Partial<ToolContext>): ToolContext;
  /** Writes a file, creating folders; `where` defaults to the workspace. */
  put(rel: string, content: string | Uint8Array, where?: string): Promise<string>;
  text(rel: string, where?: string): Promise<string>;
  exists(rel: string, where?: string): Promise<boolean>;
  cleanup(): Promise<void>;
};

let calls = 0;

export async function makeFileFixture(): Promise<FileFixture> {
  // realpath: on some systems the temp folder itself sits behind a symlink.
  const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "plangate-files-")));
  const ws = path.join(root, "ws");
  const outside = path.join(root, "outside");
  await fs.mkdir(ws);
  await fs.mkdir(outside);
  const ctx = (overrides: Partial<ToolContext> = {}): ToolContext => ({
    sessionId: "session-1",
    workspace: ws,
    callId: `call-${++calls}`,
    mode: "default",
    readOnly: false,
    planFile: null,
    sandbox: { available: false, bwrapPath: null },
    signal: new AbortController().signal,
    ...overrides,
  });
  return {
    root,
    ws,
    outside,
    ctx,
    boxed: (overrides = {}) => ctx({ sandbox: sandboxForSuite(), ...overrides }),
    async put(rel, content, where = ws) {
      const file = path.resolve(where, rel);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, content);
      return file;
    },
    text: (rel, where = ws) => fs.readFile(path.resolve(where, rel), "utf8"),
    exists: (rel, where = ws) =>
      fs.lstat(path.resolve(where, rel)).then(
        () => true,
        () => false,
      ),
    cleanup: () => fs.rm(root, { recursive: true, force: true }),
  };
}

/** Awaits once and checks both the class (what the model reads) and the message. */
export async function expectToolError(run: Promise<unknown>, message: RegExp): Promise<void> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ToolError);
  expect((err as Error).message).toMatch(message);
}
