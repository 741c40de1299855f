import type { Db } from "../db/client";
import { insertRequests } from "../db/permissions/requests";
import { newId } from "../id";
import { grantsAllow } from "../permission";
import { grantRules } from "../session/grant-store";
import { listRequests, type PermissionRequestView } from "../session/permission-store";
import { appendEvents } from "../session/append-events";
import { detectSandbox } from "../sandbox/detect-sandbox";
import { runCommand } from "../sandbox/run-command";
import type { HeldLocations } from "../sandbox/held-locations";
import type { TestRun } from "./match-plan";

const TAIL = 4_000;

/** May the workspace's verify command run for this check? */
export type CommandGate =
  | { kind: "run"; network: boolean }
  | { kind: "declined"; message: string | null }
  | { kind: "waiting"; request: PermissionRequestView };

type Target = {
  sessionId: string;
  workspace: string;
  command: string;
  timeoutMs: number;
  extraRead: readonly string[];
  /** Where the review policy's held paths are: read-only for the run, checked after (lib/sandbox/held-locations). */
  held?: HeldLocations;
};

/**
 * The command comes from `.plangate/config.json`, a file the agent (or a cloned repository) may have
 * written, so it runs only when a person allowed exactly this text: a saved "verify" grant for the
 * workspace, or a reply to the ask opened for this check (`key`). Without either, the ask is opened.
 */
export async function gateVerifyCommand(db: Db, t: Target, key: string): Promise<CommandGate> {
  const grants = await grantRules(db, t.sessionId, t.workspace, "agent");
  // Only a person's exact grant for this very text stands in for the question (the gate decides, as for any call).
  const unsandboxed = !detectSandbox().available;
  const granted = (permission: string) =>
    grantsAllow(
      "agent",
      { permission, patterns: [t.command], exactOnly: [t.command], readOnly: false, unsandboxed },
      grants,
    );
  const network = granted("network");
  if (granted("verify")) return { kind: "run", network };
  const [asked] = await listRequests(db, { sessionId: t.sessionId, toolCallId: key });
  if (asked?.status === "once" || asked?.status === "always") return { kind: "run", network };
  if (asked?.status === "reject") return { kind: "declined", message: asked.message };
  if (asked) return { kind: "waiting", request: asked };

  const requestId = newId("per");
  const metadata = {
    command: t.command,
    reason:
      "The workspace's verify command (.plangate/config.json) checks the work; it runs in the sandbox, writing only the workspace, without network.",
    alwaysOptions: [
      { pattern: t.command, options: [{ rule: t.command, exact: true, words: `exactly \`${t.command}\`` }] },
    ],
  };
  await appendEvents(
    db,
    t.sessionId,
    [
      {
        type: "permission.asked",
        payload: {
          requestId,
          tool: "verify",
          permission: "verify",
          patterns: [t.command],
          callId: key,
          purpose: "verify",
        },
      },
    ],
    {
      also: (run) =>
        insertRequests(
          run,
          [
            {
              id: requestId,
              sessionId: t.sessionId,
              toolCallId: key,
              tool: "verify",
              permission: "verify",
              patterns: [t.command],
              always: [t.command],
              metadata,
            },
          ],
          new Date(),
        ),
    },
  );
  const [created] = await listRequests(db, { id: requestId });
  if (!created) throw new Error(`permission request ${requestId} was not stored`);
  return { kind: "waiting", request: created };
}

/** Runs the allowed command in the sandbox: the workspace writable (test caches), control files and the network not. */
export async function runVerifyCommand(t: Target, network: boolean): Promise<TestRun> {
  const r = await runCommand({
    command: t.command,
    cwd: t.workspace,
    workspace: t.workspace,
    profile: { write: true, network },
    timeoutMs: t.timeoutMs,
    sandbox: detectSandbox(),
    extraRead: t.extraRead,
    ...(t.held ? { held: t.held } : {}),
  });
  const heldWritten = r.heldWritten ?? [];
  if (r.planted.length > 0 || heldWritten.length > 0) {
    // A test run that planted control files or wrote held paths failed, whatever its exit code: they were removed.
    const note =
      r.planted.length > 0
        ? `Refused: the command created control files that only a person may write (${r.planted.join(", ")}); they were removed.`
        : `Refused: the command changed paths the review policy holds for their owners (${heldWritten.join(", ")}); what it put there was quarantined.`;
    return {
      command: t.command,
      exitCode: null,
      timedOut: r.timedOut,
      outputTail: `${r.output.slice(-TAIL)}\n${note}`,
    };
  }
  return { command: t.command, exitCode: r.exitCode, timedOut: r.timedOut, outputTail: r.output.slice(-TAIL) };
}
