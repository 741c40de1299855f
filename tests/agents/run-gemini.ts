// Runs the real Gemini CLI headless against the fake API, offline: its own HOME (settings with API-key auth,
// telemetry and update checks off), the fake's URL, and only loopback in reach; the folder's trust is the test's.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** A HOME whose ~/.gemini/settings.json makes Gemini talk only to the fake (Plangate's connect adds its hooks). */
export function geminiHome(parent: string): string {
  const home = fs.mkdtempSync(path.join(parent, "gemini-home-"));
  fs.mkdirSync(path.join(home, ".gemini"));
  fs.writeFileSync(
    path.join(home, ".gemini", "settings.json"),
    `${JSON.stringify(
      {
        security: { auth: { selectedType: "gemini-api-key" } },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
      },
      null,
      2,
    )}\n`,
  );
  return home;
}

export type GeminiRun = { status: number | null; stdout: string; stderr: string };

export function runGemini(o: {
  bin: string;
  cwd: string;
  home: string;
  fakeUrl: string;
  prompt: string;
  approvalMode: "plan" | "default" | "yolo";
  configHome: string;
  timeoutMs?: number;
}): Promise<GeminiRun> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: o.home,
    GEMINI_API_KEY: "fake-key",
    GOOGLE_GEMINI_BASE_URL: o.fakeUrl,
    // The hook's saved agent token and connected projects (as on a person's machine; no operator token).
    XDG_CONFIG_HOME: o.configHome,
    NO_COLOR: "1",
  };
  return new Promise((resolve, reject) => {
    const child = spawn(
      o.bin,
      ["--approval-mode", o.approvalMode, "-m", "gemini-2.5-pro", "-p", o.prompt, "-o", "json"],
      {
        cwd: o.cwd,
        env: env as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`gemini did not finish in ${o.timeoutMs ?? 120_000} ms\n${stderr.slice(-2000)}`));
    }, o.timeoutMs ?? 120_000);
    child.on("exit", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
