// Runs the real Claude Code CLI headless, the way ExitPlanMode stays available: stream-json in and out, with
// `--permission-prompt-tool stdio`, so permission asks arrive on stdout as `can_use_tool` control requests.
// This host leaves them unanswered by default (as a person who never touches the terminal would), so a
// PermissionRequest hook (Plangate's) decides. A test can answer them itself to play "the terminal answered
// first" (onControlRequest).
//
// Isolation: a fresh HOME and CLAUDE_CONFIG_DIR (HOME/.claude) per run, and an environment built from scratch
// (only PATH and locale are taken from the host), so the machine user's settings, credentials and plans never
// leak in; plan files land in <home>/.claude/plans/. The API goes to the given base URL (the fake) with a dummy
// key; telemetry, auto-update and other nonessential traffic are off.
//
// Protocol as observed with 2.1.328: no `initialize` control request is needed (the first user line is enough);
// the first output line is {type:"system",subtype:"init",permissionMode:"plan",…}. For ExitPlanMode the CLI
// sends {type:"control_request",request_id,request:{subtype:"can_use_tool",tool_name:"ExitPlanMode",
// input:{plan,planFilePath},tool_use_id,requires_user_interaction:true}} and runs the PermissionRequest hook at
// the same time; when the hook decides it sends {type:"control_cancel_request",request_id}. A mode change shows
// as {type:"system",subtype:"status",permissionMode}. After the `result` line the CLI waits for more input, so
// runClaude closes stdin, and the CLI exits 0. A host answer is {type:"control_response",response:{subtype:
// "success",request_id,response:{behavior:"allow",updatedInput,updatedPermissions?}|{behavior:"deny",message}}}.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** One line of Claude Code's stream-json output (system/init, assistant, user, result, control_request, …). */
export interface StreamMessage {
  type: string;
  subtype?: string;
  session_id?: string;
  [key: string]: unknown;
}

/** A `can_use_tool` (or other) control request Claude Code sent to the host. */
export interface ControlRequest {
  request_id: string;
  request: {
    subtype: string;
    tool_name?: string;
    input?: Record<string, unknown>;
    tool_use_id?: string;
    [key: string]: unknown;
  };
}

/** What a host may answer to a control request: for can_use_tool, `{behavior:"allow",updatedInput}` or `{behavior:"deny",message}`. */
export type ControlAnswer = Record<string, unknown>;

export interface RunClaudeOptions {
  /** The claude binary (installClaudeCode()). */
  bin: string;
  /** The workspace Claude Code runs in (its project settings are <cwd>/.claude/settings.json). */
  cwd: string;
  /** The user's prompt, sent as one stream-json user message. */
  prompt: string;
  /** Base URL of the (fake) Anthropic API, e.g. fake.url. */
  baseUrl: string;
  /** HOME for the run (default: a fresh temp folder, which the caller removes); CLAUDE_CONFIG_DIR is <home>/.claude. */
  home?: string;
  /** Default "plan". */
  permissionMode?: "plan" | "default" | "acceptEdits" | "bypassPermissions";
  /** Kill the CLI if no result message arrived by then (default 120 s). */
  timeoutMs?: number;
  /** Extra environment variables (e.g. for the hook: PLANGATE_URL); undefined removes one of the defaults. */
  env?: Record<string, string | undefined>;
  /** Extra CLI arguments. */
  args?: string[];
  /** Called for every output line, in order. */
  onMessage?: (message: StreamMessage) => void;
  /** Answer a control request (return undefined, the default, to leave it unanswered). May be async. */
  onControlRequest?: (request: ControlRequest) => ControlAnswer | undefined | Promise<ControlAnswer | undefined>;
}

export interface RunClaudeResult {
  /** Every stream-json line Claude Code printed (control requests included), in order. */
  messages: StreamMessage[];
  /** The control requests seen (answered or not). */
  controlRequests: ControlRequest[];
  /** The final `result` message, or null when the run timed out or the CLI died first. */
  result: StreamMessage | null;
  stderr: string;
  /** Non-JSON stdout lines, if any. */
  stdoutNoise: string[];
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  home: string;
  configDir: string;
  sessionId: string | null;
}

/** The environment a run gets (exported so a test can show what is needed). */
export function claudeEnv(
  home: string,
  baseUrl: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const nodeDir = path.dirname(process.execPath);
  const hostPath = process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin";
  const env: Record<string, string | undefined> = {
    PATH: hostPath.split(":").includes(nodeDir) ? hostPath : `${nodeDir}:${hostPath}`,
    LANG: process.env.LANG ?? "C.UTF-8",
    HOME: home,
    CLAUDE_CONFIG_DIR: path.join(home, ".claude"),
    TMPDIR: os.tmpdir(),
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "sk-ant-fake-key-for-tests",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_BUG_COMMAND: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    CLAUDE_CODE_DISABLE_TERMINAL_TITLE: "1",
    // The hook's credential: the suites' operator token (vitest.config.ts), as a person's shell would export it.
    PLANGATE_TOKEN: process.env.PLANGATE_TOKEN,
    ...extra,
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** Write (replace) <cwd>/.claude/settings.json. `plangate connect claude-code` writes the same file. */
export function writeProjectSettings(cwd: string, settings: Record<string, unknown>): string {
  const file = path.join(cwd, ".claude", "settings.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(settings, null, 2) + "\n");
  return file;
}

/** A project settings object with one PermissionRequest command hook for the given matcher. */
export function permissionRequestHook(command: string, options: { matcher?: string; timeoutSeconds?: number } = {}) {
  return {
    hooks: {
      PermissionRequest: [
        {
          matcher: options.matcher ?? "ExitPlanMode",
          hooks: [{ type: "command", command, timeout: options.timeoutSeconds ?? 60 }],
        },
      ],
    },
  };
}

/** The stream-json user message for a prompt. */
export function userMessage(prompt: string): string {
  return (
    JSON.stringify({
      type: "user",
      message: { role: "user", content: [{ type: "text", text: prompt }] },
      parent_tool_use_id: null,
      session_id: "",
    }) + "\n"
  );
}

/** Run Claude Code once: send the prompt, collect output until the result message, then close stdin. */
export function runClaude(options: RunClaudeOptions): Promise<RunClaudeResult> {
  const home = options.home ?? fs.mkdtempSync(path.join(os.tmpdir(), "plangate-claude-home-"));
  const configDir = path.join(home, ".claude");
  fs.mkdirSync(configDir, { recursive: true });
  const args = [
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-prompt-tool",
    "stdio",
    "--permission-mode",
    options.permissionMode ?? "plan",
    ...(options.args ?? []),
  ];
  const started = Date.now();
  const child = spawn(options.bin, args, {
    cwd: options.cwd,
    env: claudeEnv(home, options.baseUrl, options.env) as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const out: RunClaudeResult = {
    messages: [],
    controlRequests: [],
    result: null,
    stderr: "",
    stdoutNoise: [],
    exitCode: null,
    timedOut: false,
    durationMs: 0,
    home,
    configDir,
    sessionId: null,
  };

  return new Promise<RunClaudeResult>((resolve) => {
    let buffer = "";
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      // With stream-json input the CLI waits for the next user message after a result: end its input.
      child.stdin.end();
      const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.once("exit", () => clearTimeout(kill));
    };
    const timer = setTimeout(() => {
      out.timedOut = true;
      child.kill("SIGTERM");
      finish();
    }, options.timeoutMs ?? 120_000);

    const send = (line: string) => {
      if (!child.stdin.destroyed && child.stdin.writable) child.stdin.write(line);
    };
    const onLine = (line: string) => {
      if (!line.trim()) return;
      let msg: StreamMessage;
      try {
        msg = JSON.parse(line) as StreamMessage;
      } catch {
        out.stdoutNoise.push(line);
        return;
      }
      out.messages.push(msg);
      if (msg.session_id && !out.sessionId) out.sessionId = msg.session_id;
      options.onMessage?.(msg);
      if (msg.type === "control_request") {
        const request = msg as unknown as ControlRequest;
        out.controlRequests.push(request);
        if (options.onControlRequest) {
          void Promise.resolve(options.onControlRequest(request)).then((answer) => {
            if (answer === undefined) return;
            send(
              JSON.stringify({
                type: "control_response",
                response: { subtype: "success", request_id: request.request_id, response: answer },
              }) + "\n",
            );
          });
        }
      }
      if (msg.type === "result") {
        out.result = msg;
        finish();
      }
    };
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      buffer += chunk;
      let nl: number;
      while ((nl = buffer.indexOf("\n")) >= 0) {
        onLine(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => (out.stderr += chunk));
    child.stdin.on("error", () => undefined); // EPIPE when the CLI exits first: reported through close/stderr
    child.on("error", (err) => {
      out.stderr += `\nspawn error: ${err.message}`;
    });
    child.on("close", (code) => {
      if (buffer) onLine(buffer);
      clearTimeout(timer);
      out.exitCode = code;
      out.durationMs = Date.now() - started;
      resolve(out);
    });
    send(userMessage(options.prompt));
  });
}

/** The tool_use blocks of the assistant messages, in order. */
export function toolUses(messages: StreamMessage[]): { id: string; name: string; input: Record<string, unknown> }[] {
  const uses: { id: string; name: string; input: Record<string, unknown> }[] = [];
  for (const m of messages) {
    if (m.type !== "assistant") continue;
    const content =
      (
        m.message as
          | { content?: { type: string; id?: string; name?: string; input?: Record<string, unknown> }[] }
          | undefined
      )?.content ?? [];
    for (const b of content)
      if (b.type === "tool_use") uses.push({ id: b.id ?? "", name: b.name ?? "", input: b.input ?? {} });
  }
  return uses;
}
