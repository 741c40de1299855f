// Runs the real Qwen Code as an editor would, over ACP (`qwen --acp`: JSON-RPC 2.0, one message per line on
// stdio), against the fake OpenAI-compatible API, offline: its own HOME (OpenAI auth, usage statistics, updates and
// side queries off: measured in docs/agents.md). Its exit_plan_mode exists only there (and in its terminal), not in
// `qwen -p`. The client answers Qwen's own permission prompts the way `answer` says.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";

export function qwenHome(parent: string): string {
  const home = fs.mkdtempSync(path.join(parent, "qwen-home-"));
  fs.mkdirSync(path.join(home, ".qwen"));
  const settings = {
    security: { auth: { selectedType: "openai" } },
    privacy: { usageStatisticsEnabled: false },
    general: { enableAutoUpdate: false },
    telemetry: { enabled: false },
    ui: { enableFollowupSuggestions: false },
    memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false },
  };
  fs.writeFileSync(path.join(home, ".qwen", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
  return home;
}

export type PermissionAsk = {
  toolCall?: { title?: string; rawInput?: unknown };
  options?: { optionId: string; kind: string }[];
};
export type QwenRun = { stopReason: string | null; prompts: PermissionAsk[]; stderr: string };

/**
 * One prompt in plan mode over ACP; resolves when the prompt's turn ends. `answer` picks the option the client
 * gives each of Qwen's own permission prompts ("allow": its first allow option, as a person clicking yes).
 */
export async function runQwen(o: {
  bin: string;
  cwd: string;
  home: string;
  fakeUrl: string;
  prompt: string;
  configHome: string;
  answer?: "allow" | "reject" | ((ask: PermissionAsk) => "allow" | "reject");
  timeoutMs?: number;
}): Promise<QwenRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    OPENAI_API_KEY: "sk-fake",
    OPENAI_BASE_URL: o.fakeUrl,
    OPENAI_MODEL: "fake-model",
    XDG_CONFIG_HOME: o.configHome,
    TERM: "dumb",
  };
  // Qwen relaunches itself as a child: its own process group, so the whole of it can be stopped.
  const child = spawn(o.bin, ["--acp"], { cwd: o.cwd, env: env as NodeJS.ProcessEnv, detached: true });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const prompts: PermissionAsk[] = [];
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  const call = (method: string, params: object) =>
    new Promise<unknown>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });
  readline.createInterface({ input: child.stdout }).on("line", (line) => {
    let m: { id?: number; method?: string; params?: PermissionAsk; result?: unknown; error?: { message: string } };
    try {
      m = JSON.parse(line);
    } catch {
      return;
    }
    if (m.id !== undefined && !m.method) {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (m.error) p?.reject(new Error(`${m.error.message}\n${stderr.slice(-1500)}`));
      else p?.resolve(m.result);
      return;
    }
    if (m.method === "session/request_permission" && m.id !== undefined) {
      prompts.push(m.params ?? {});
      const answer = typeof o.answer === "function" ? o.answer(m.params ?? {}) : (o.answer ?? "allow");
      const want = answer === "allow" ? /^allow/ : /^reject/;
      const option = (m.params?.options ?? []).find((x) => want.test(x.kind));
      send({
        id: m.id,
        result: { outcome: option ? { outcome: "selected", optionId: option.optionId } : { outcome: "cancelled" } },
      });
    } else if (m.id !== undefined && m.method) {
      send({ id: m.id, error: { code: -32601, message: `the test client has no ${m.method}` } });
    }
  });
  const stop = () => {
    try {
      if (child.pid) process.kill(-child.pid, "SIGKILL");
    } catch {}
  };
  const timer = setTimeout(() => {
    stop();
    for (const p of pending.values()) p.reject(new Error(`qwen did not finish in time\n${stderr.slice(-2000)}`));
  }, o.timeoutMs ?? 150_000);
  try {
    await call("initialize", {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
    });
    const { sessionId } = (await call("session/new", { cwd: o.cwd, mcpServers: [] })) as { sessionId: string };
    await call("session/set_mode", { sessionId, modeId: "plan" });
    const done = (await call("session/prompt", { sessionId, prompt: [{ type: "text", text: o.prompt }] })) as {
      stopReason?: string;
    };
    return { stopReason: done.stopReason ?? null, prompts, stderr };
  } finally {
    clearTimeout(timer);
    stop();
  }
}
