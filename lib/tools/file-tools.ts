import { applyPatchTool } from "./apply-patch";
import { editTool } from "./edit";
import { globTool } from "./glob";
import { grepTool } from "./grep";
import { listTool } from "./list";
import { readTool } from "./read";
import type { ToolDef } from "./types";
import { writeTool } from "./write";

/**
 * The workspace file tools, in the order the model sees them: looking before changing.
 * ToolDef<unknown> works because asks/execute are declared as methods (bivariant); the
 * caller must validate input with each tool's inputSchema before calling them.
 */
export const fileTools: readonly ToolDef<unknown>[] = [
  readTool,
  listTool,
  globTool,
  grepTool,
  writeTool,
  editTool,
  applyPatchTool,
];
