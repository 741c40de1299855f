import fs from "node:fs/promises";
import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import {
  assertMayWrite,
  countLines,
  fsToolError,
  controlPatterns,
  pathAsks,
  readTextIfExists,
  realPlanFile,
  unifiedDiff,
  writeAllowed,
  resolveForAsk,
  resolveForRun,
} from "./file-common";
import { ToolError, type ToolDef } from "./types";

const writeInput = z.object({
  path: z
    .string()
    .min(1)
    .describe("File to write: relative to the workspace, or absolute. Missing folders are created."),
  content: z.string().describe("The complete new content of the file."),
});
export type WriteInput = z.infer<typeof writeInput>;

/**
 * The diff for the permission card. Never throws: asks must not turn file
 * contents (which may be outside the workspace) into an answer the model sees.
 */
async function diffFor(absolute: string, display: string, content: string): Promise<string> {
  return (await changeFor(absolute, display, content)).diff;
}

/** The diff for the permission card, and whether the write would change anything at all. */
async function changeFor(
  absolute: string,
  display: string,
  content: string,
): Promise<{ diff: string; unchanged: boolean }> {
  try {
    const before = await readTextIfExists(absolute, display);
    return { diff: unifiedDiff(display, before ?? "", content), unchanged: before === content };
  } catch (err) {
    return { diff: `(no diff: ${err instanceof Error ? err.message : String(err)})`, unchanged: false };
  }
}

export const writeTool: ToolDef<WriteInput> = {
  name: "write",
  description: [
    "Create a file or replace its whole content. Parent folders are created as needed.",
    "To change part of an existing file prefer edit (or apply_patch for several files): they show a smaller diff and keep what you did not mean to touch.",
  ].join("\n"),
  permission: "edit",
  inputSchema: writeInput,

  async asks(input, ctx) {
    const resolved = await resolveForAsk(ctx, input.path);
    const display = permissionPath(resolved);
    const planFile = await realPlanFile(ctx);
    const { diff, unchanged } = await changeFor(resolved.absolute, display, input.content);
    return pathAsks(resolved, "file", {
      permission: "edit",
      readOnly: false,
      planFile: resolved.absolute === planFile,
      control: controlPatterns([resolved], planFile, ctx.held),
      metadata: { path: display, diff, ...(unchanged ? { unchanged: true } : {}) },
    });
  },

  async execute(input, ctx) {
    const resolved = await resolveForRun(ctx, input.path);
    const display = permissionPath(resolved);
    const planFile = await realPlanFile(ctx);
    assertMayWrite(ctx, resolved, planFile);
    let existed = true;
    try {
      const stat = await fs.lstat(resolved.absolute);
      if (stat.isDirectory()) throw new ToolError(`${display} is a directory; give a file path.`);
      if (!stat.isFile()) throw new ToolError(`${display} is not a regular file.`);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw fsToolError(err, display, "write");
      existed = false;
    }
    const diff = await diffFor(resolved.absolute, display, input.content);
    await writeAllowed(ctx, resolved.absolute, input.content, display, planFile);
    const lines = countLines(input.content);
    const verb = existed ? "Overwrote" : "Created";
    return {
      output: `${verb} ${display} (${lines} ${lines === 1 ? "line" : "lines"} written).`,
      metadata: { path: display, created: !existed, lines, diff },
    };
  },
};
