import { agentDef } from "../../lib/agent/session-context";
import { judgeCall } from "../../lib/permission/judge-call";
import type { PermissionMode } from "../../lib/permission";
import { bashTool } from "../../lib/tools/bash";
import { listTool } from "../../lib/tools/list";
import { readTool } from "../../lib/tools/read";
import type { ToolContext } from "../../lib/tools/types";
import { writeTool } from "../../lib/tools/write";
import { effectiveConfig } from "../../lib/workspace/effective-config";
import { readConfigFile } from "../../lib/workspace/workspace-config";

let calls = 0;

/** A call as the model would make it: the tool and its one interesting argument. */
export type GateCall = { tool: "bash"; command: string } | { tool: "read" | "write" | "list"; path: string };

/**
 * What Plangate's gate answers for a call in a workspace, the whole real way: the workspace's
 * `.plangate/config.json` through Plangate's own loader, as it applies when a person trusted its content
 * (`trusted`, the default) or not, the agent resolved from it, the tool's own permission asks (paths resolved
 * with realpath, commands split by the shell parser), and judgeCall.
 */
export async function gateDecision(
  workspace: string,
  call: GateCall,
  opts: { agent?: string; mode?: PermissionMode; trusted?: boolean } = {},
): Promise<"allow" | "ask" | "deny"> {
  const file = readConfigFile(workspace);
  if (file.config.error !== undefined) throw new Error(file.config.error);
  const trust =
    opts.trusted === false || file.hash === null
      ? null
      : { workspace, hash: file.hash, trustedAt: new Date(0).toISOString(), trustedBy: "person" };
  const { def: agent, narrowing } = agentDef(opts.agent ?? "build", workspace, effectiveConfig(file, trust));
  const mode = opts.mode ?? "default";
  const ctx: ToolContext = {
    sessionId: "gate-kit",
    workspace,
    callId: `gate-kit-${++calls}`,
    mode,
    readOnly: agent.readOnly,
    planFile: null,
    sandbox: { available: true, bwrapPath: "/usr/bin/bwrap", slirpPath: null },
    signal: new AbortController().signal,
  };
  const asks =
    call.tool === "bash"
      ? await bashTool.asks({ command: call.command }, ctx)
      : call.tool === "read"
        ? await readTool.asks({ path: call.path }, ctx)
        : call.tool === "list"
          ? await listTool.asks({ path: call.path }, ctx)
          : await writeTool.asks({ path: call.path, content: "x" }, ctx);
  const judged = judgeCall({
    asks,
    agentRules: agent.permission,
    narrowing,
    grantRules: [],
    mode,
    gates: { autoGateOpen: true, bypassEnabled: false },
    allowedOnce: new Set(),
  });
  return judged.kind;
}
