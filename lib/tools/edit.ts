import { z } from "zod";
import { permissionPath } from "../workspace/resolve-path";
import {
  assertMayWrite,
  countLines,
  controlPatterns,
  pathAsks,
  readTextIfExists,
  realPlanFile,
  unifiedDiff,
  writeAllowed,
  resolveForAsk,
  resolveForRun,
} from "./file-common";
import { assertReachable, onFiles, outsideOf } from "./file-view";
import { truncateOutput } from "./truncate";
import { ToolError, type ToolDef } from "./types";

const editInput = z.object({
  path: z.string().min(1).describe("File to edit: relative to the workspace, or absolute."),
  oldString: z
    .string()
    .describe('Exact text to replace, whitespace included. Use "" to create a new (or fill an empty) file.'),
  newString: z.string().describe("Text to put in its place."),
  replaceAll: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of requiring exactly one (default false)."),
});
export type EditInput = z.infer<typeof editInput>;

export type EditResult = { after: string; replaced: number; created: boolean };

function occurrences(text: string, needle: string): number {
  let n = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
}

function checkInput(input: EditInput): void {
  if (input.oldString === input.newString)
    throw new ToolError("oldString and newString are identical; there is nothing to change.");
}

/** The new content, or the ToolError explaining why this edit cannot apply to `before` (null: no such file). */
export function computeEdit(before: string | null, input: EditInput, display: string): EditResult {
  checkInput(input);
  if (input.oldString === "") {
    if (before !== null && before !== "") {
      throw new ToolError(
        `${display} already exists and is not empty; give the text to replace as oldString, or use write to replace the whole file.`,
      );
    }
    return { after: input.newString, replaced: 0, created: before === null };
  }
  if (before === null)
    throw new ToolError(`File not found: ${display}. To create it, use an empty oldString (or the write tool).`);
  let oldString = input.oldString;
  let newString = input.newString;
  let count = occurrences(before, oldString);
  // read shows CRLF files without their \r, so the model's oldString has bare \n: match it the way the file is written.
  if (count === 0 && before.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r")) {
    oldString = oldString.replace(/\n/g, "\r\n");
    newString = newString.replace(/\r?\n/g, "\r\n");
    count = occurrences(before, oldString);
  }
  if (count === 0) {
    throw new ToolError(
      `oldString was not found in ${display}; read the file first and copy the text exactly, whitespace included.`,
    );
  }
  if (count > 1 && input.replaceAll !== true) {
    throw new ToolError(
      `oldString was found ${count} times in ${display}; include more surrounding lines to make it unique, or set replaceAll to true.`,
    );
  }
  // split/join rather than String.replace, which would read "$&" or "$1" in newString as substitutions.
  return { after: before.split(oldString).join(newString), replaced: count, created: false };
}

export const editTool: ToolDef<EditInput> = {
  name: "edit",
  description: [
    "Replace exact text in a file. oldString must appear exactly once (copy it from a read, with enough surrounding lines to be unique), unless replaceAll is true.",
    'With oldString "" the file is created with newString as its content (only if it does not exist or is empty).',
    "Returns a diff of the change.",
  ].join("\n"),
  permission: "edit",
  inputSchema: editInput,

  async asks(input, ctx) {
    checkInput(input);
    const resolved = await resolveForAsk(ctx, input.path);
    const display = permissionPath(resolved);
    assertReachable(ctx, [resolved]);
    const planFile = await realPlanFile(ctx);
    // Never throw from here on: failures depend on file contents, which the model must not learn before permission.
    // Outside the workspace nothing is read before a person allowed the folder.
    const diff = resolved.inside
      ? await onFiles(ctx, { write: false }, async (files) => {
          try {
            const before = await readTextIfExists(files, resolved.absolute, display);
            return unifiedDiff(display, before ?? "", computeEdit(before, input, display).after);
          } catch (err) {
            return `(this edit will fail: ${err instanceof Error ? err.message : String(err)})`;
          }
        }).catch((err: unknown) => `(no diff: ${err instanceof Error ? err.message : String(err)})`)
      : "(outside the workspace: the file is read only once a person allowed its folder)";
    return pathAsks(resolved, "file", {
      permission: "edit",
      readOnly: false,
      planFile: resolved.absolute === planFile,
      control: controlPatterns([resolved], planFile, ctx.held),
      metadata: { path: display, diff },
    });
  },

  async execute(input, ctx) {
    checkInput(input);
    const resolved = await resolveForRun(ctx, input.path);
    const display = permissionPath(resolved);
    const planFile = await realPlanFile(ctx);
    assertMayWrite(ctx, resolved, planFile);
    const { before, result } = await onFiles(
      ctx,
      { write: true, outside: outsideOf([resolved], "file") },
      async (files) => {
        const text = await readTextIfExists(files, resolved.absolute, display);
        const edited = computeEdit(text, input, display);
        await writeAllowed(files, resolved.absolute, edited.after, display, planFile);
        return { before: text, result: edited };
      },
    );
    const diff = unifiedDiff(display, before ?? "", result.after);
    const lines = countLines(result.after);
    const summary =
      input.oldString === ""
        ? `${result.created ? "Created" : "Filled the empty file"} ${display} (${lines} ${lines === 1 ? "line" : "lines"}).`
        : `Edited ${display}: replaced ${result.replaced} ${result.replaced === 1 ? "occurrence" : "occurrences"}.`;
    return {
      output: truncateOutput(`${summary}\n\n${diff}`),
      metadata: { path: display, replaced: result.replaced, created: result.created, diff },
    };
  },
};
