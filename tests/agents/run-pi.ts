// Runs the real pi CLI headless (`pi -p`) against the fake OpenAI-compatible API, offline: its own HOME with a
// provider pointing at the fake (pi asks for no sign-in, and in print mode makes no other connection: measured in
// docs/agents.md), Plangate's extension wherever `plangate connect pi` put it under that HOME.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A HOME whose ~/.pi/agent makes pi talk only to the fake at `fakeUrl` (the base URL with /v1). */
export function piHome(parent: string, fakeUrl: string): string {
  const home = fs.mkdtempSync(path.join(parent, "pi-home-"));
  const agentDir = path.join(home, ".pi", "agent");
  fs.mkdirSync(agentDir, { recursive: true });
  const provider = {
    baseUrl: fakeUrl,
    api: "openai-completions",
    apiKey: "FAKE_API_KEY",
    compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
    models: [{ id: "fake-model", name: "Fake model", reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
  };
  fs.writeFileSync(path.join(agentDir, "models.json"), JSON.stringify({ providers: { fake: provider } }));
  fs.writeFileSync(
    path.join(agentDir, "settings.json"),
    JSON.stringify({ defaultProvider: "fake", defaultModel: "fake-model", enableInstallTelemetry: false }),
  );
  return home;
}

export type PiRun = { status: number | null; stdout: string; stderr: string };

export function runPi(o: {
  bin: string;
  cwd: string;
  home: string;
  prompt: string;
  configHome: string;
  env?: Record<string, string>;
  /** More of pi's command line (e.g. --session FILE), before -p. */
  args?: string[];
  timeoutMs?: number;
}): Promise<PiRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    FAKE_API_KEY: "sk-fake",
    PI_OFFLINE: "1",
    // The hook's saved agent token and connected projects (as on a person's machine; no operator token).
    XDG_CONFIG_HOME: o.configHome,
    NO_COLOR: "1",
    ...o.env,
  };
  return runCollected("pi", o.bin, [...(o.args ?? []), "-p", o.prompt], { cwd: o.cwd, env, timeoutMs: o.timeoutMs });
}

/** Runs an agent's CLI to its end with no input, collecting what it printed; rejects when it overruns. */
export function runCollected(
  name: string,
  bin: string,
  args: string[],
  o: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<PiRun> {
  const timeoutMs = o.timeoutMs ?? 120_000;
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { cwd: o.cwd, env: o.env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${name} did not finish in ${timeoutMs} ms\n${stderr.slice(-2000)}`));
    }, timeoutMs);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
