// Runs the real GitHub Copilot CLI headless in plan mode (`copilot -p … --plan --mode autopilot`) against the fake
// OpenAI-compatible API, offline: a custom provider (no GitHub sign-in), COPILOT_OFFLINE (no connection but the
// fake: measured in docs/agents.md), its own COPILOT_HOME, where `plangate connect copilot` puts its hook. Copilot
// unpacks its 235 MB package on a first run: into one folder in the CLI cache, so that happens once.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { CLI_ROOT } from "./install-clis";

export type CopilotRun = { status: number | null; stdout: string; stderr: string };

export function copilotHome(parent: string): string {
  const home = fs.mkdtempSync(path.join(parent, "copilot-home-"));
  fs.mkdirSync(path.join(home, ".copilot"), { recursive: true });
  return home;
}

/** The session folder the model is told to write plan.md into (Copilot names it in its system prompt). */
export function sessionFolder(systemPrompt: string): string {
  const m = /(\/\S*?\/session-state\/[0-9a-f-]{36})/.exec(systemPrompt);
  if (!m?.[1]) throw new Error("Copilot's system prompt names no session folder");
  return m[1];
}

/** A running Copilot: `done` settles when it exits; `stop` kills it (a turn that ends in plan mode never exits). */
export function runCopilot(o: {
  bin: string;
  cwd: string;
  home: string;
  fakeUrl: string;
  prompt: string;
  configHome: string;
  args?: string[];
  timeoutMs?: number;
}): { done: Promise<CopilotRun>; stop: () => void } {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    COPILOT_HOME: path.join(o.home, ".copilot"),
    COPILOT_OFFLINE: "true",
    COPILOT_PROVIDER_BASE_URL: o.fakeUrl,
    COPILOT_PROVIDER_API_KEY: "sk-fake",
    // A model Copilot knows, so it offers its create and edit tools.
    COPILOT_MODEL: "claude-sonnet-4.6",
    COPILOT_AUTO_UPDATE: "false",
    COPILOT_PKG_CACHE_HOME: path.join(CLI_ROOT, "copilot-pkg"),
    XDG_CONFIG_HOME: o.configHome,
    TERM: "dumb",
  };
  const args = ["-p", o.prompt, "--plan", "--mode", "autopilot", "--no-auto-update", "--disable-client-telemetry"];
  const child = spawn(o.bin, [...args, ...(o.args ?? [])], {
    cwd: o.cwd,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<CopilotRun>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`copilot did not finish in ${o.timeoutMs ?? 120_000} ms\n${stderr.slice(-2000)}`));
    }, o.timeoutMs ?? 120_000);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
  return { done, stop: () => child.kill("SIGKILL") };
}
