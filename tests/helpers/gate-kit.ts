import { judgeCall } from "../../lib/agent/judge-call";
import { fromConfig, resolveAgent, type PermissionMode } from "../../lib/permission";
import { bashTool } from "../../lib/tools/bash";
import { listTool } from "../../lib/tools/list";
import { readTool } from "../../lib/tools/read";
import type { ToolContext } from "../../lib/tools/types";
import { writeTool } from "../../lib/tools/write";
import { loadWorkspaceConfig } from "../../lib/workspace/workspace-config";

let calls = 0;

/** A call as the model would make it: the tool and its one interesting argument. */
export type GateCall = { tool: "bash"; command: string } | { tool: "read" | "write" | "list"; path: string };

/**
 * What Plangate's gate answers for a call in a workspace, the whole real way: the workspace's
 * `.plangate/config.json` through Plangate's own loader, the agent resolved from it, the tool's own
 * permission asks (paths resolved with realpath, commands split by the shell parser), and judgeCall.
 */
export async function gateDecision(workspace: string, call: GateCall, opts: { agent?: string; mode?: PermissionMode } = {}): Promise<"allow" | "ask" | "deny"> {
  const config = loadWorkspaceConfig(workspace);
  if (config.error !== undefined) throw new Error(config.error);
  const user = config.permission ? fromConfig(config.permission) : [];
  const agent = resolveAgent(opts.agent ?? "build", config.agents ?? {}, { plansDir: ".plangate/plans", workspace, user });
  if (!agent) throw new Error(`no agent ${opts.agent}`);
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
  const judged = judgeCall({ asks, agentRules: agent.permission, grantRules: [], mode, gates: { autoGateOpen: true, bypassEnabled: false }, allowedOnce: new Set() });
  return judged.kind;
}
