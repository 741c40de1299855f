import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import {
  assertMayWrite,
  countLines,
  fsToolError,
  controlPatterns,
  MAX_EDIT_BYTES,
  pathAsks,
  readTextIfExists,
  realPlanFile,
  unifiedDiff,
  writeAllowed,
  resolveForAsk,
  resolveForRun,
} from "./file-common";
import { assertReachable, type Files, onFiles, outsideOf } from "./file-view";
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
 * The diff for the permission card, and whether the write would change anything at all. Never throws: asks must
 * not turn file contents into an answer the model sees. Outside the workspace nothing is read before a person
 * allowed the folder.
 */
async function changeFor(
  files: Files | null,
  absolute: string,
  display: string,
  content: string,
): Promise<{ diff: string; unchanged: boolean }> {
  if (files === null)
    return {
      diff: `(outside the workspace: not compared with the current file, which is read only once a person allowed its folder)\n${unifiedDiff(display, "", content)}`,
      unchanged: false,
    };
  try {
    const before = await readTextIfExists(files, absolute, display);
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
    assertReachable(ctx, [resolved]);
    const planFile = await realPlanFile(ctx);
    const { diff, unchanged } = resolved.inside
      ? await onFiles(ctx, { write: false }, (files) =>
          changeFor(files, resolved.absolute, display, input.content),
        ).catch((err: unknown) => ({
          diff: `(no diff: ${err instanceof Error ? err.message : String(err)})`,
          unchanged: false,
        }))
      : await changeFor(null, resolved.absolute, display, input.content);
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
    const written = await onFiles(ctx, { write: true, outside: outsideOf([resolved], "file") }, (files) =>
      files({
        op: "writeText",
        path: resolved.absolute,
        content: input.content,
        atomic: resolved.absolute === planFile,
        before: MAX_EDIT_BYTES,
      }),
    ).catch((err: unknown) => {
      if ((err as { code?: string }).code === "EISDIR")
        throw new ToolError(`${display} is a directory; give a file path.`);
      throw fsToolError(err, display, "write");
    });
    const existed = written.existed;
    const diff =
      written.before === null && existed
        ? "(no diff: the file was not text)"
        : unifiedDiff(display, written.before ?? "", input.content);
    const lines = countLines(input.content);
    const verb = existed ? "Overwrote" : "Created";
    return {
      output: `${verb} ${display} (${lines} ${lines === 1 ? "line" : "lines"} written).`,
      metadata: { path: display, created: !existed, lines, diff },
    };
  },
};
