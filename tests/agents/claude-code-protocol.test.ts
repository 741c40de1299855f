// Proves the Claude Code plan-review protocol Plangate builds on (issue 17), with the real CLI (pinned, installed
// at test time) against the fake Anthropic API, and a tiny PermissionRequest hook standing in for Plangate's.
// Scenario per run: the model writes its plan file (the path Claude Code names in the plan-mode instructions),
// calls ExitPlanMode (no arguments), and, once out of plan mode, writes hello.txt in the workspace.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CLAUDE_CODE, cliForSuite } from "./install-clis";
import {
  findPlanFilePath,
  startFakeAnthropic,
  toolResults,
  type FakeAnthropic,
  type ScriptBlock,
  type ScriptTurn,
} from "./fake-anthropic";
import {
  permissionRequestHook,
  runClaude,
  toolUses,
  writeProjectSettings,
  type ControlAnswer,
  type ControlRequest,
  type RunClaudeResult,
} from "./run-claude";

const claude = await cliForSuite(CLAUDE_CODE);
const PLAN = "# Plan\n\n1. Create hello.txt with a greeting.\n";
const temps: string[] = [];
const timings: Record<string, number> = {};
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true });
  if (Object.keys(timings).length) console.info(`claude-code runs (ms): ${JSON.stringify(timings)}`);
});

type HookDecision =
  | { behavior: "allow"; appendToPlan?: string; mode?: string; omitUpdatedInput?: boolean }
  | { behavior: "deny"; message: string };
interface HookInput {
  session_id: string;
  transcript_path: string;
  cwd: string;
  permission_mode: string;
  hook_event_name: string;
  tool_name: string;
  tool_input: { plan: string; planFilePath: string };
}

// The hook: reads its stdin, records it, optionally waits, prints the decision. CommonJS, no dependencies.
const HOOK_SOURCE = `const fs = require("fs");
const [record, decisionFile] = process.argv.slice(2);
let raw = "";
process.stdin.on("data", (d) => (raw += d)).on("end", () => {
  fs.writeFileSync(record + ".stdin.json", raw);
  const input = JSON.parse(raw);
  const { delayMs, decision } = JSON.parse(fs.readFileSync(decisionFile, "utf8"));
  setTimeout(() => {
    let out;
    if (decision.behavior === "deny") out = { behavior: "deny", message: decision.message };
    else {
      out = { behavior: "allow", updatedPermissions: [{ type: "setMode", mode: decision.mode || "acceptEdits", destination: "session" }] };
      if (!decision.omitUpdatedInput) out.updatedInput = { ...input.tool_input, plan: input.tool_input.plan + (decision.appendToPlan || "") };
    }
    fs.writeFileSync(record + ".answered", String(Date.now()));
    process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: out } }));
  }, delayMs || 0);
});
`;

interface Run {
  run: RunClaudeResult;
  fake: FakeAnthropic;
  cwd: string;
  hookInput: () => HookInput;
  hookAnswered: () => boolean;
}

async function planRun(
  name: string,
  opts: {
    decision: HookDecision;
    hookDelayMs?: number;
    afterExit: (cwd: string) => ScriptTurn[];
    onControlRequest?: (r: ControlRequest) => ControlAnswer | undefined | Promise<ControlAnswer | undefined>;
  },
): Promise<Run> {
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "plangate-cc-proto-")));
  temps.push(tmp);
  const cwd = path.join(tmp, "workspace");
  fs.mkdirSync(cwd);
  const hookFile = path.join(tmp, "hook.cjs");
  const record = path.join(tmp, "hook");
  const decisionFile = path.join(tmp, "decision.json");
  fs.writeFileSync(hookFile, HOOK_SOURCE);
  fs.writeFileSync(decisionFile, JSON.stringify({ delayMs: opts.hookDelayMs ?? 0, decision: opts.decision }));
  writeProjectSettings(
    cwd,
    permissionRequestHook(`"${process.execPath}" "${hookFile}" "${record}" "${decisionFile}"`, { timeoutSeconds: 60 }),
  );
  const fake = await startFakeAnthropic({
    turns: [
      (req) => [
        { type: "text", text: "I will write the plan." },
        {
          type: "tool_use",
          name: "Write",
          input: { file_path: findPlanFilePath(req) ?? "missing-plan-path.md", content: PLAN },
        },
      ],
      [{ type: "tool_use", name: "ExitPlanMode", input: {} }],
      ...opts.afterExit(cwd),
    ],
  });
  try {
    const run = await runClaude({
      bin: claude!,
      cwd,
      prompt: "Create hello.txt",
      baseUrl: fake.url,
      home: path.join(tmp, "home"),
      timeoutMs: 45_000,
      onControlRequest: opts.onControlRequest,
    });
    timings[name] = run.durationMs;
    if (!run.result)
      throw new Error(`no result message (timedOut=${run.timedOut}, exit=${run.exitCode}): ${run.stderr}`);
    return {
      run,
      fake,
      cwd,
      hookInput: () => JSON.parse(fs.readFileSync(`${record}.stdin.json`, "utf8")) as HookInput,
      hookAnswered: () => fs.existsSync(`${record}.answered`),
    };
  } finally {
    await fake.close();
  }
}

const writeHello = (cwd: string): ScriptBlock[] => [
  { type: "tool_use", name: "Write", input: { file_path: path.join(cwd, "hello.txt"), content: "hello\n" } },
];
const done: ScriptTurn = [{ type: "text", text: "Done." }];
const exitResultId = (r: Run) =>
  toolUses(r.run.messages).find((u) => u.name === "ExitPlanMode")?.id ?? "no ExitPlanMode call";
/** The ExitPlanMode tool_result the model saw in the request after the exit call (main request 2). */
function exitResult(r: Run) {
  const seen = toolResults(r.fake.mainRequests()[2]?.body ?? null).find((t) => t.toolUseId === exitResultId(r));
  expect(seen).toBeDefined();
  return seen!;
}
/** How Claude Code's transcript records the decision on the ExitPlanMode result (the way to tell hook from terminal). */
function transcriptDecision(transcriptPath: string, toolUseId: string): Record<string, unknown> | undefined {
  for (const line of fs.readFileSync(transcriptPath, "utf8").split("\n")) {
    if (!line.includes(toolUseId) || !line.includes('"tool_result"')) continue;
    const entry = JSON.parse(line) as { type?: string; permissionDecision?: Record<string, unknown> };
    if (entry.type === "user") return entry.permissionDecision;
  }
  return undefined;
}
const statusModes = (r: Run) =>
  r.run.messages.filter((m) => m.type === "system" && m.subtype === "status").map((m) => m.permissionMode);
const canUseTool = (r: Run, tool: string) =>
  r.run.controlRequests.filter((c) => c.request.subtype === "can_use_tool" && c.request.tool_name === tool);

describe.skipIf(!claude)(
  `Claude Code ${CLAUDE_CODE.version}: plan review through a PermissionRequest hook (real CLI, fake API)`,
  () => {
    it("allow with an edited plan and setMode acceptEdits: the model sees the edited plan and its write happens", async () => {
      const r = await planRun("allow-edited", {
        decision: { behavior: "allow", appendToPlan: "2. Reviewer: also add a test.\n" },
        afterExit: (cwd) => [writeHello(cwd), done],
      });

      // The hook's stdin.
      const input = r.hookInput();
      expect(input).toMatchObject({
        cwd: r.cwd,
        permission_mode: "plan",
        hook_event_name: "PermissionRequest",
        tool_name: "ExitPlanMode",
        session_id: r.run.sessionId,
      });
      expect(input.tool_input.plan).toBe(PLAN);
      // planFilePath is absolute, in CLAUDE_CONFIG_DIR/plans/ (not literally "~"), and the one the prompt named.
      expect(input.tool_input.planFilePath).toBe(findPlanFilePath(r.fake.mainRequests()[0]!.body));
      expect(path.dirname(input.tool_input.planFilePath)).toBe(path.join(r.run.configDir, "plans"));
      expect(fs.existsSync(input.transcript_path)).toBe(true);
      // ExitPlanMode was called with no arguments; Claude Code filled in plan and planFilePath itself.
      expect(toolUses(r.run.messages).find((u) => u.name === "ExitPlanMode")?.input).toEqual(input.tool_input);

      // The host saw a can_use_tool request for it, left it unanswered, and the hook's decision cancelled it.
      const [ask] = canUseTool(r, "ExitPlanMode");
      expect(ask?.request.requires_user_interaction).toBe(true);
      expect(r.run.messages.some((m) => m.type === "control_cancel_request" && m.request_id === ask?.request_id)).toBe(
        true,
      );

      // The model's next request: approved, with the edited plan.
      const seen = exitResult(r);
      expect(seen.isError).toBe(false);
      expect(seen.text).toContain("User has approved your plan");
      expect(seen.text).toContain(`## Approved Plan (edited by user):\n${PLAN}2. Reviewer: also add a test.`);
      expect(statusModes(r)).toEqual(["acceptEdits"]);
      // acceptEdits: the workspace write needed no permission.
      expect(fs.readFileSync(path.join(r.cwd, "hello.txt"), "utf8")).toBe("hello\n");
      expect(canUseTool(r, "Write")).toEqual([]);
      // Claude Code writes the edited plan back into the plan file.
      expect(fs.readFileSync(input.tool_input.planFilePath, "utf8")).toBe(`${PLAN}2. Reviewer: also add a test.\n`);
      expect(transcriptDecision(input.transcript_path, exitResultId(r))).toMatchObject({
        decision: "accept",
        source: "hook",
      });
      expect(r.run.result).toMatchObject({ type: "result", subtype: "success" });
      expect(r.fake.unknownRequests()).toEqual([]);
    }, 60_000);

    it("deny with a message: the model gets exactly the message as an error result and stays in plan mode", async () => {
      const feedback = "Please add tests.\n\nLine 3: why a greeting?";
      // After the rejection the model tries the write anyway: plan mode asks the host, which refuses.
      const r = await planRun("deny", {
        decision: { behavior: "deny", message: feedback },
        afterExit: (cwd) => [writeHello(cwd), done],
        onControlRequest: (req) =>
          req.request.tool_name === "Write" ? { behavior: "deny", message: "host: not now" } : undefined,
      });
      const seen = exitResult(r);
      expect(seen).toMatchObject({ isError: true, text: feedback });
      expect(statusModes(r)).toEqual([]);
      const [writeAsk] = canUseTool(r, "Write");
      expect(writeAsk?.request.decision_reason_type).toBe("mode"); // still in plan mode
      expect(fs.existsSync(path.join(r.cwd, "hello.txt"))).toBe(false);
      expect(transcriptDecision(r.hookInput().transcript_path, exitResultId(r))).toMatchObject({
        decision: "reject",
        source: "hook",
      });
    }, 60_000);

    it("an allow without updatedInput is ignored: the ask stays open until someone else answers", async () => {
      const r = await planRun("allow-without-updatedInput", {
        decision: { behavior: "allow", omitUpdatedInput: true },
        afterExit: () => [done],
        onControlRequest: async (req) => {
          if (req.request.tool_name !== "ExitPlanMode") return undefined;
          await new Promise((resolve) => setTimeout(resolve, 3_000)); // well after the hook answered
          return { behavior: "deny", message: "terminal: rejected" };
        },
      });
      expect(r.hookAnswered()).toBe(true);
      expect(exitResult(r)).toMatchObject({ isError: true, text: "terminal: rejected" });
    }, 60_000);

    it("the terminal (host) answering first wins; the hook keeps running and its late answer is ignored", async () => {
      const r = await planRun("terminal-first", {
        decision: { behavior: "deny", message: "late hook answer" },
        hookDelayMs: 1_500,
        // Keep the session busy past the hook's answer, then write.
        afterExit: (cwd) => [{ delayMs: 3_000, blocks: writeHello(cwd) }, done],
        onControlRequest: (req) =>
          req.request.tool_name === "ExitPlanMode"
            ? {
                behavior: "allow",
                updatedInput: req.request.input ?? {},
                updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }],
              }
            : undefined,
      });
      const seen = exitResult(r);
      expect(seen.isError).toBe(false);
      expect(seen.text).toContain(`## Approved Plan:\n${PLAN}`); // unchanged plan: no "(edited by user)"
      expect(r.hookAnswered()).toBe(true);
      expect(fs.existsSync(path.join(r.cwd, "hello.txt"))).toBe(true);
      expect(
        toolResults(r.fake.mainRequests().at(-1)?.body ?? null).some((t) => t.text.includes("late hook answer")),
      ).toBe(false);
      // The transcript tells a terminal answer from a hook's.
      expect(transcriptDecision(r.hookInput().transcript_path, exitResultId(r))).toMatchObject({
        decision: "accept",
        source: "user_temporary",
      });
    }, 60_000);
  },
);
