// Runs the real Cline CLI headless (`cline --json PROMPT`) against the fake OpenAI-compatible API, offline: its own
// HOME with an openai-compatible provider pointing at the fake (no Cline sign-in), a local session backend (no hub
// daemon left behind), and Plangate's plugin wherever `plangate connect cline` put it under that HOME.
import fs from "node:fs";
import path from "node:path";
import { type PiRun, runCollected } from "./run-pi";

/** A HOME whose ~/.cline makes Cline talk only to the fake at `fakeUrl` (the base URL with /v1). */
export function clineHome(parent: string, fakeUrl: string): string {
  const home = fs.mkdtempSync(path.join(parent, "cline-home-"));
  const settings = path.join(home, ".cline", "data", "settings");
  fs.mkdirSync(settings, { recursive: true });
  const provider = { provider: "openai-compatible", apiKey: "sk-fake", model: "fake-model", baseUrl: fakeUrl };
  fs.writeFileSync(
    path.join(settings, "providers.json"),
    JSON.stringify({
      version: 1,
      lastUsedProvider: "openai-compatible",
      modes: {},
      // Cline reads a provider without updatedAt as not set, and falls back to its own cloud provider.
      providers: {
        "openai-compatible": { settings: provider, updatedAt: new Date().toISOString(), tokenSource: "manual" },
      },
    }),
  );
  return home;
}

export type ClineRun = PiRun & { result: { finishReason?: string; text?: string } };

export async function runCline(o: {
  bin: string;
  cwd: string;
  home: string;
  prompt: string;
  configHome: string;
  timeoutMs?: number;
}): Promise<ClineRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    CLINE_SESSION_BACKEND_MODE: "local",
    CLINE_NO_AUTO_UPDATE: "1",
    // The hook's saved agent token and connected projects (as on a person's machine; no operator token).
    XDG_CONFIG_HOME: o.configHome,
    NO_COLOR: "1",
  };
  const run = await runCollected("cline", o.bin, ["--json", o.prompt], { cwd: o.cwd, env, timeoutMs: o.timeoutMs });
  const last = run.stdout
    .trim()
    .split("\n")
    .map((l) => {
      try {
        return JSON.parse(l) as { type?: string };
      } catch {
        return {};
      }
    })
    .findLast((e) => e.type === "run_result");
  return { ...run, result: (last ?? {}) as ClineRun["result"] };
}
