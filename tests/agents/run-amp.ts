// Drives the real Amp CLI where it runs without ampcode.com's sign-in (its model does not): `amp permissions test`,
// which reads the project's `.amp/settings.json` and runs Plangate's delegate exactly as a thread would, and Amp's
// own Bun (`BUN_BE_BUN=1 amp FILE`), which loads Plangate's plugin as Amp's plugin runtime would (in the plugin's
// own folder) and calls its submit_plan and gate through a stand-in for Amp's plugin API (registerTool, on, the
// workspace root, the tool's thread).
import fs from "node:fs";
import path from "node:path";
import { runCollected } from "./run-pi";

export type AmpEnv = { bin: string; home: string; configHome: string };

const envOf = (a: AmpEnv, extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: a.home,
  // Amp's settings and plugins, and Plangate's token and connected projects, as on a person's machine.
  XDG_CONFIG_HOME: a.configHome,
  // Nothing Amp would ask of its servers may leave the machine.
  AMP_URL: "http://127.0.0.1:9",
  NO_COLOR: "1",
  ...extra,
});

export type AmpVerdict = { action: "allow" | "ask" | "reject" | null; error?: string; exit: number | null };

/** `amp permissions test TOOL --k v … -w -t THREAD --json` in the project: what Amp decides, having run the delegate. */
export async function ampDecides(
  a: AmpEnv,
  cwd: string,
  tool: string,
  args: Record<string, string>,
  thread = "T-plangate-1",
): Promise<AmpVerdict> {
  const flags = Object.entries(args).flatMap(([k, v]) => [`--${k}`, v]);
  const run = await runCollected(
    "amp permissions test",
    a.bin,
    ["permissions", "test", tool, ...flags, "-w", "-t", thread, "--json"],
    { cwd, env: envOf(a), timeoutMs: 90_000 },
  );
  try {
    const out = JSON.parse(run.stdout) as { action: AmpVerdict["action"]; error?: string };
    return { action: out.action, error: out.error, exit: run.status };
  } catch {
    throw new Error(`amp permissions test printed no verdict (exit ${run.status}): ${run.stdout}${run.stderr}`);
  }
}

const HARNESS = `
import { fileURLToPath, pathToFileURL } from "node:url";
const plugin = await import(process.env.PLANGATE_AMP_PLUGIN);
let tool;
const on = {};
const root = process.env.PLANGATE_WORKSPACE;
plugin.default({
  system: { workspaceRoot: root ? { toString: () => pathToFileURL(root).href } : null },
  helpers: { filePathFromURI: (u) => fileURLToPath(u.toString()) },
  registerTool: (t) => { tool = t; return { dispose() {} }; },
  on: (e, h) => { on[e] = h; return { dispose() {} }; },
});
const thread = { id: process.env.PLANGATE_THREAD };
const input = JSON.parse(process.env.PLANGATE_TOOL_INPUT);
try {
  if (process.env.PLANGATE_CALL) {
    console.log(JSON.stringify(await on["tool.call"]({ toolUseID: "toolu_1", tool: process.env.PLANGATE_CALL, input, thread })));
  } else {
    const text = await tool.execute(input, { thread });
    console.log(JSON.stringify({ name: tool.name, text }));
  }
} catch (e) {
  console.log(JSON.stringify({ name: tool.name, error: e.message }));
}
`;

/**
 * Runs the harness in Amp's Bun as Amp runs a plugin: in the plugin's own folder, the project (`workspace`) given
 * as Amp's workspace root (null: Amp runs without one). Its last line, parsed.
 */
async function inAmpsBun(
  a: AmpEnv,
  workspace: string | null,
  extra: Record<string, string>,
): Promise<Record<string, unknown>> {
  const harness = path.join(a.home, "plugin-harness.mjs");
  fs.writeFileSync(harness, HARNESS);
  const plugins = path.join(a.configHome, "amp", "plugins");
  const run = await runCollected("amp's Bun", a.bin, [harness], {
    cwd: plugins,
    env: envOf(a, {
      BUN_BE_BUN: "1",
      PLANGATE_AMP_PLUGIN: path.join(plugins, "plangate.js"),
      ...(workspace === null ? {} : { PLANGATE_WORKSPACE: workspace }),
      ...extra,
    }),
    timeoutMs: 120_000,
  });
  const line = run.stdout.trim().split("\n").at(-1) ?? "";
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    throw new Error(`the plugin gave no answer (exit ${run.status}): ${run.stdout}${run.stderr}`);
  }
}

/** The plugin's submit_plan, called in Amp's Bun from the project: the tool's result, or the error it threw. */
export const ampSubmitsPlan = (a: AmpEnv, cwd: string | null, plan: string, thread = "T-plangate-1") =>
  inAmpsBun(a, cwd, { PLANGATE_TOOL_INPUT: JSON.stringify({ plan }), PLANGATE_THREAD: thread }) as Promise<{
    name: string;
    text?: string;
    error?: string;
  }>;

/** The plugin's own gate (its `tool.call` handler) on one call: Amp's plugin answer. */
export const ampPluginGates = (a: AmpEnv, cwd: string | null, tool: string, input: object, thread = "T-plangate-1") =>
  inAmpsBun(a, cwd, {
    PLANGATE_TOOL_INPUT: JSON.stringify(input),
    PLANGATE_THREAD: thread,
    PLANGATE_CALL: tool,
  }) as Promise<{
    action: string;
    message?: string;
  }>;
