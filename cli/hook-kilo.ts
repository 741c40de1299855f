// `plangate hook kilo --url URL [--deadline SECONDS]`: what Plangate's Kilo plugin (cli/kilo-plugin.ts) runs for what
// needs the server: whether the folder is connected, a plan_exit's plan to put on the desk and wait on, and (with
// --asks) a changing call. Kilo puts no timeout on a plugin, so the hook's own deadline ends a wait, with a refusal.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  approvalText,
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
import { isRealPlanFile, realPlanDirs } from "./kilo-plan-files";
import { readPlanFile, writePlanFile } from "./read-plan-file";

const USAGE = "usage: plangate hook kilo [--url URL] [--deadline SECONDS] (run by Plangate's Kilo plugin)";
const MAX_PLAN_BYTES = 200_000;

const refused = (error: string): KiloPlanAnswer => refusedPlan(error);

/** The project roots Kilo works in: its worktree (a non-git folder has none, "/") and its folder. */
const rootsOf = (input: { cwd: string; worktree?: string }) =>
  [input.worktree, input.cwd].filter((r): r is string => !!r && r !== "/");

/**
 * The plan file plan_exit means: the path the model passed (relative to Kilo's worktree, as Kilo reads it), else
 * the session's own plan file by its name; either only as a real plan file in the project's `.kilo/plans` (never a
 * link, never another file of the project). The plugin checks after the tool that Kilo ended with this very file.
 */
function planFile(input: Extract<KiloHookInput, { event: "plan_exit" }>): string | { problem: string } {
  const roots = rootsOf(input);
  const dirs = realPlanDirs(roots);
  const exists = (f: string) => fs.lstatSync(f, { throwIfNoEntry: false }) !== undefined;
  if (input.path !== undefined) {
    const file = path.resolve(roots[0] ?? input.cwd, input.path);
    if (isRealPlanFile(file, dirs) && exists(file)) return file;
    return {
      problem: `plan_exit names ${JSON.stringify(input.path)}, which is not a plan file in this project's ${KILO_PLAN_DIRS[0]}: write the plan there, then call plan_exit with its path`,
    };
  }
  for (const dir of input.session_plan ? dirs : []) {
    const file = path.join(dir, input.session_plan as string);
    if (isRealPlanFile(file, dirs) && exists(file)) return file;
  }
  return {
    problem: `no plan file was found: write the plan in ${KILO_PLAN_DIRS[0]}, then call plan_exit with its path`,
  };
}

async function reviewPlan(url: string, input: Extract<KiloHookInput, { event: "plan_exit" }>, deadline: number) {
  const file = planFile(input);
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
  let inFile = plan;
  if (outcome.edited)
    try {
      writePlanFile(file as string, outcome.plan);
      inFile = outcome.plan;
    } catch (error) {
      unwritten = `\n\n(${error instanceof Error ? error.message : String(error)}: follow the plan above, not the file.)`;
    }
  return {
    approved: true,
    text: approvalText(outcome) + unwritten,
    file: file as string,
    plan: inFile,
  } satisfies KiloPlanAnswer;
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
    ask: (input) =>
      input.event === "tool_call"
        ? kiloAsk(input.tool_name, input.input, input.cwd, (f) =>
            isRealPlanFile(path.resolve(input.cwd, f), realPlanDirs(rootsOf(input))),
          )
        : { answer: {} },
  });
