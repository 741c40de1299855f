// Runs the real Factory Droid headless (`droid exec --use-spec`) against the fake OpenAI-compatible API, offline:
// its own HOME with a custom model pointing at the fake (no Factory sign-in needed for one), airgap mode on (no
// connection but the fake: measured in docs/agents.md), Plangate's hooks wherever `plangate connect droid` put them.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A HOME whose ~/.factory/settings.json names the fake at `fakeUrl` (the base URL with /v1) as its model. */
export function droidHome(parent: string, fakeUrl: string): string {
  const home = fs.mkdtempSync(path.join(parent, "droid-home-"));
  fs.mkdirSync(path.join(home, ".factory"), { recursive: true });
  const model = {
    model: "fake-model",
    displayName: "Fake model",
    baseUrl: fakeUrl,
    apiKey: "sk-fake",
    provider: "generic-chat-completion-api",
    maxOutputTokens: 4096,
  };
  fs.writeFileSync(path.join(home, ".factory", "settings.json"), JSON.stringify({ customModels: [model] }));
  return home;
}

export type DroidRun = { status: number | null; stdout: string; stderr: string };

export function runDroid(o: {
  bin: string;
  cwd: string;
  home: string;
  prompt: string;
  configHome: string;
  timeoutMs?: number;
}): Promise<DroidRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    FACTORY_AIRGAP_ENABLED: "true",
    // The hook's saved agent token and connected projects (as on a person's machine; no operator token).
    XDG_CONFIG_HOME: o.configHome,
    NO_COLOR: "1",
  };
  // exec leaves ExitSpecMode out of its tools unless it is added; "low" autonomy lets the approved plan's edits run.
  const args = ["exec", "-o", "json", "--use-spec", "--auto", "low", "--add-tools", "ExitSpecMode"];
  return new Promise((resolve, reject) => {
    const child = spawn(o.bin, [...args, "-m", "custom:fake-model", o.prompt], {
      cwd: o.cwd,
      env: env as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`droid did not finish in ${o.timeoutMs ?? 120_000} ms\n${stderr.slice(-2000)}`));
    }, o.timeoutMs ?? 120_000);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
