// `plangate hook cline-tools --url URL [--deadline SECONDS]`: the PreToolUse command hook `plangate connect cline`
// writes to ~/.cline/hooks, behind Plangate's plugin. Cline runs on without any plugin when loading them fails (a
// slow plugin of the repository's is enough), so this hook, which Cline runs apart from its plugins, stops the run
// when a changing tool is called in a connected folder and no plan of that conversation was approved on the desk.
// Cline takes a command hook's error, silence or garbage as "go on" and cannot hand its reason to the model, so the
// only refusal is `cancel` (the run ends), and every path here answers explicitly.
import { readsOnly } from "../lib/external/cline-hook";
import { clinePreToolUse } from "../lib/external/cline-hook-input";
import { rememberedApproval } from "./approved-notes";
import { isLive } from "./cline-live";
import { gatesAny } from "./connections";
import { runHook } from "./run-hook";

const USAGE = "usage: plangate hook cline-tools [--url URL] [--deadline SECONDS] (run by Cline as a PreToolUse hook)";

const stop = (why: string) => ({ cancel: true, errorMessage: `Plangate: ${why}` });

export const run = (args: string[]): Promise<number> =>
  runHook(args, {
    usage: USAGE,
    refuse: (why) => stop(`the hook was set up wrongly (${why}): run plangate connect cline again.`),
    async handle(raw, url) {
      const parsed = clinePreToolUse.safeParse(raw);
      if (!parsed.success) return stop("the hook could not read what Cline sent it; the run is stopped.");
      const input = parsed.data;
      const folders = [process.cwd(), input.workspaceInfo?.rootPath, ...(input.workspaceRoots ?? [])];
      if (
        !gatesAny(
          "cline",
          folders.filter((f): f is string => !!f),
        )
      )
        return {};
      // Plangate's plugin runs for this conversation: its gate answers, with the reason the model reads.
      if (isLive(input.taskId) || readsOnly(input.tool_call.name)) return {};
      if (await rememberedApproval(url, "cline", input.taskId)) return {};
      return stop(
        `${input.tool_call.name} is not allowed until a plan is approved on the desk, and Plangate's Cline plugin is not running here to take one (run plangate connect cline --check).`,
      );
    },
    failed: (_raw, why) => stop(`the hook failed (${why}); the run is stopped.`),
  });
