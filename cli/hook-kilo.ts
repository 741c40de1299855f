// `plangate hook kilo --url URL [--deadline SECONDS]`: what Plangate's Kilo plugin (cli/kilo-plugin.ts) runs for what
// needs the server: whether the folder is connected, a plan_exit's plan to put on the desk and wait on, and (with
// --asks) a changing call. Kilo puts no timeout on a plugin, so the hook's own deadline ends a wait, with a refusal.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  approvalText,
  beneath,
  inKiloTerms,
  KILO_PLAN_DIRS,
  KILO_PLAN_TOOL,
  kiloAsk,
  kiloBlock,
  type KiloPlanAnswer,
} from "../lib/external/kilo-hook";
import { type KiloHookInput, kiloHookInput } from "../lib/external/kilo-hook-input";
import { awaitOutcome, submitPlan } from "./await-review";
import { refusedPlan, runCarriedHook } from "./carried-hook";
import { readPlanFile, writePlanFile } from "./read-plan-file";

const USAGE = "usage: plangate hook kilo [--url URL] [--deadline SECONDS] (run by Plangate's Kilo plugin)";
const MAX_PLAN_BYTES = 200_000;

const refused = (error: string): KiloPlanAnswer => refusedPlan(error);

/** A folder's real path when it is the project or beneath it (a planted link out of the project is not). */
function realWithin(root: string, dir: string): string | null {
  try {
    const real = fs.realpathSync(dir);
    return real === root || beneath(root, real) !== null ? real : null;
  } catch {
    return null;
  }
}

/** The newest markdown file (a regular file, not a link) in a folder, if any. */
function newestPlan(dir: string): string | undefined {
  let best: { file: string; mtime: number } | undefined;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".md")) continue;
    const file = path.join(dir, entry.name);
    const mtime = fs.lstatSync(file).mtimeMs;
    if (!best || mtime > best.mtime) best = { file, mtime };
  }
  return best?.file;
}

/**
 * The plan file plan_exit means: the path the model passed (in the project, or in Kilo's own plans folder), else
 * the newest plan in the project's plan folders. Paths are the model's: a file anywhere else is refused.
 */
function planFile(cwd: string, requested: string | undefined): string | { problem: string } {
  let root: string;
  try {
    root = fs.realpathSync(cwd);
  } catch {
    return { problem: `the folder ${cwd} cannot be read` };
  }
  if (requested !== undefined) {
    const abs = path.resolve(root, requested);
    const dataPlans = path.join(
      process.env.XDG_DATA_HOME || path.join(os.homedir(), ".local", "share"),
      "kilo",
      "plans",
    );
    const dir = realWithin(root, path.dirname(abs)) ?? realWithin(dataPlans, path.dirname(abs));
    if (!dir) return { problem: `plan_exit names ${JSON.stringify(requested)}, which is not a file in this project` };
    return path.join(dir, path.basename(abs));
  }
  for (const rel of KILO_PLAN_DIRS) {
    const dir = realWithin(root, path.join(root, rel));
    const file = dir ? newestPlan(dir) : undefined;
    if (file) return file;
  }
  return { problem: "no plan file was found: write the plan, then call plan_exit with its path" };
}

async function reviewPlan(url: string, input: Extract<KiloHookInput, { event: "plan_exit" }>, deadline: number) {
  const file = planFile(input.cwd, input.path);
  const plan = typeof file === "string" ? readPlanFile(file, MAX_PLAN_BYTES, KILO_PLAN_TOOL) : file;
  if (typeof plan !== "string") return refused(`Plangate: ${plan.problem}.`);
  const submitted = await submitPlan(url, {
    agent: "kilo",
    externalSessionId: input.session_id,
    cwd: input.cwd,
    machine: os.hostname(),
    plan,
    planFilePath: file,
  });
  // Kilo's plan_exit has no dialog of its own to fall back on: an unreachable or refusing server leaves it unapproved.
  if ("unreachable" in submitted) return refused(`${submitted.unreachable}: the plan was not reviewed.`);
  if ("refused" in submitted) return refused(`${submitted.refused}.`);
  process.stderr.write(`plangate: plan sent for review: ${url}/desk?item=${submitted.reviewId}\n`);
  const outcome = await awaitOutcome(url, submitted.reviewId, deadline);
  if (outcome === null)
    return refused(`No decision on Plangate (${url}) in time: the plan is not approved. Call plan_exit to ask again.`);
  if ("gone" in outcome) return refused(`Plangate: ${outcome.gone}; the plan is not approved.`);
  if (outcome.status !== "approved")
    return refused(inKiloTerms(outcome.message ?? "The plan was not approved on Plangate: keep planning."));
  // The plan as approved goes back into its file too: Kilo's "Start new session" implements from the file.
  let unwritten = "";
  if (outcome.edited)
    try {
      writePlanFile(file as string, outcome.plan);
    } catch (error) {
      unwritten = `\n\n(${error instanceof Error ? error.message : String(error)}: follow the plan above, not the file.)`;
    }
  return { approved: true, text: approvalText(outcome) + unwritten } satisfies KiloPlanAnswer;
}

export const run = (args: string[]): Promise<number> =>
  runCarriedHook(args, {
    agent: "kilo",
    from: "the Kilo plugin",
    usage: USAGE,
    schema: kiloHookInput,
    planEvent: "plan_exit",
    plan: (url, input, deadline) =>
      input.event === "plan_exit" ? reviewPlan(url, input, deadline) : Promise.resolve(kiloBlock("not a plan")),
    ask: (input) => (input.event === "tool_call" ? kiloAsk(input.tool_name, input.input, input.cwd) : { answer: {} }),
  });
