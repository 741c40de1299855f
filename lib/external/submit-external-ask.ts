import type { Db } from "../db/client";
import { sessionOfRequest } from "../db/permissions/requests";
import { AppError } from "../errors";
import { newId } from "../id";
import { judgeCall } from "../permission";
import { alwaysOptions, commandShapes } from "../sandbox/always-rules";
import { reachesOutside } from "../sandbox/read-only-commands";
import { appendEvents } from "../session/append-events";
import { grantRules } from "../session/grant-store";
import { listRequests, planRequests } from "../session/permission-store";
import { logMoved } from "../session/log-watch";
import type { PermissionAsk } from "../tools/types";
import { configRules } from "../workspace/config-trust";
import { isControlPath } from "../workspace/control-paths";
import { fileInOutsideFolder } from "./rules/outside-folder";
import { isExternalModel, type ExternalAgent } from "../session/external-agents";
import { ensureExternalSession } from "./submit-external-plan";
import type { Starter } from "../auth/rules/rights";

const EDIT_TOOLS = ["Edit", "Write", "MultiEdit", "NotebookEdit"];

/**
 * An outside agent's command as the gate judges it. Split with the shell parser: one simple command of literal
 * words is its pattern (a prefix grant such as "mkdir *" may answer it); anything else (several commands, a
 * redirection, a substitution, an expansion, a newline) is judged as its whole text, which only an exact grant
 * answers: the agent runs it on the host, with the network, where a prefix would cover whatever follows. A
 * plain command whose arguments reach outside the workspace (`cat ~/.ssh/id_ed25519`) is judged exactly too.
 */
function commandAsk(command: string): PermissionAsk {
  const shapes = commandShapes(command);
  const only = shapes.length === 1 ? shapes[0] : undefined;
  const confined = only?.words?.slice(1).every((w) => !reachesOutside(w)) === true;
  const single = only !== undefined && only.plain && confined && !command.includes("\n");
  const pattern = single ? only.text : command;
  const options = single ? alwaysOptions(only) : [{ rule: command, exact: true, words: `exactly \`${command}\`` }];
  return {
    permission: "bash",
    patterns: [pattern],
    always: [options.at(-1)?.rule ?? pattern],
    alwaysOptions: [{ pattern, options }],
    exactOnly: single ? [] : [pattern],
    readOnly: false,
    insideWorkspace: true,
    metadata: { command },
  };
}

/**
 * An outside agent's tool call as a Plangate ask (null: Plangate does not judge it, and the agent's own dialog
 * asks the person). The agent may be on another machine, so a path is judged by its text in the agent's folder
 * (never resolved on this disk): one that leads out of the folder is left to the agent's dialog; a control file
 * by its name is flagged.
 */
export async function plangateAsk(
  tool: string,
  input: Record<string, unknown>,
  workspace: string,
): Promise<PermissionAsk | null> {
  if (tool === "Bash" && typeof input.command === "string" && input.command.trim() !== "")
    return commandAsk(input.command);
  const file =
    typeof input.file_path === "string"
      ? input.file_path
      : typeof input.notebook_path === "string"
        ? input.notebook_path
        : null;
  if (!EDIT_TOOLS.includes(tool) || file === null) return null;
  const pattern = fileInOutsideFolder(workspace, file);
  if (pattern === null) return null;
  return {
    permission: "edit",
    patterns: [pattern],
    always: [pattern],
    alwaysOptions: [{ pattern, options: [{ rule: pattern, exact: true, words: `exactly \`${pattern}\`` }] }],
    exactOnly: [pattern],
    ...(isControlPath(pattern) ? { control: [pattern] } : {}),
    readOnly: false,
    insideWorkspace: true,
    metadata: { path: pattern },
  };
}

export type AskOutcome = {
  requestId: string | null;
  status: "allow" | "deny" | "pending" | "once" | "always" | "reject";
  message: string | null;
};

const CLOSED = { autoGateOpen: false, bypassEnabled: false };
/** Outside agents are narrowed by no repository config: the server reads nothing in their folder. */
export const OUTSIDE_NARROWING = configRules({}, false).narrowing;

/**
 * A permission ask of an outside agent's tool, judged by the one gate as an outside (unsandboxed) actor: only a
 * person's grants made for outside agents may allow it; the workspace's config only narrows (its deny refuses at
 * once); a control file always goes to a person, once. Otherwise it becomes a pending ask on the session's
 * permission card (once / always / reject with a message).
 */
export async function submitExternalAsk(
  db: Db,
  a: {
    agent: ExternalAgent;
    externalId: string;
    workspace: string;
    tool: string;
    input: Record<string, unknown>;
    starter: Starter;
    machine?: string | undefined;
  },
): Promise<AskOutcome> {
  const ask = await plangateAsk(a.tool, a.input, a.workspace);
  if (!ask)
    throw new AppError(
      "bad_request",
      `tool: Plangate does not judge this ${a.tool} call (a tool it does not know, or a path outside the workspace); answer it in the agent's dialog`,
    );
  const sessionId = await ensureExternalSession(db, a);
  // The repository's config is in the agent's folder, which this server never reads (it may be elsewhere).
  const narrowing = OUTSIDE_NARROWING;
  const grants = await grantRules(db, sessionId, a.workspace, "outside");
  const judged = judgeCall({
    actor: "outside",
    asks: [ask],
    agentRules: [],
    grantRules: grants,
    narrowing,
    mode: "default",
    gates: CLOSED,
    allowedOnce: new Set(),
  });
  // A composed command is judged whole (only an exact grant answers it), and each of its commands by the
  // workspace's denies: `true && git push --force` is refused where `git push *` is.
  const parts =
    ask.permission === "bash" && ask.exactOnly?.length ? commandShapes(String(a.input.command)).map((c) => c.text) : [];
  const partDenied =
    parts.length > 0
      ? judgeCall({
          actor: "outside",
          asks: [{ permission: "bash", patterns: parts, readOnly: false }],
          agentRules: [],
          grantRules: [],
          narrowing,
          mode: "default",
          gates: CLOSED,
          allowedOnce: new Set(),
        })
      : null;
  if (judged.kind === "deny" || partDenied?.kind === "deny") {
    const reason = judged.kind === "deny" ? judged.reason : partDenied?.kind === "deny" ? partDenied.reason : "";
    return { requestId: null, status: "deny", message: `Plangate's rules for this workspace deny it: ${reason}.` };
  }
  if (judged.kind === "allow") return { requestId: null, status: "allow", message: null };
  const { rows, events, write } = planRequests(
    sessionId,
    newId("call"),
    a.tool,
    judged.asks.map((x) => ({ ...x, metadata: { ...(x.metadata ?? {}), agent: a.agent } })),
  );
  await appendEvents(db, sessionId, events, { also: write });
  return { requestId: rows[0]?.id ?? null, status: "pending", message: null };
}

/** The ask's reply, waiting up to waitMs for a person. */
export async function awaitExternalAsk(
  db: Db,
  requestId: string,
  waitMs: number,
  signal?: AbortSignal,
): Promise<AskOutcome> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const [req] = await listRequests(db, { id: requestId });
    if (!req) throw new AppError("not_found", "No permission ask has that id.");
    const owner = await sessionOfRequest(db, requestId);
    if (!owner || !isExternalModel(owner.model))
      throw new AppError("forbidden", "That ask belongs to a Plangate agent's session, not an outside agent's.");
    const left = deadline - Date.now();
    if (req.status !== "pending" || left <= 0 || signal?.aborted)
      return { requestId, status: req.status, message: req.message ?? null };
    // A missed wake-up costs at most 2 s.
    await logMoved(db, req.sessionId, Math.min(left, 2_000));
  }
}
