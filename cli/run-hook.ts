// What every agent hook does around its own answer (Gemini CLI's and Codex's): read its options, answer --help,
// take the check `connect --check` sends, and never end without an explicit answer, since an agent may take a
// hook that failed or printed nothing as a yes.
import { DEFAULT_URL } from "./client";
import { answerCheck, CHECK_KEY } from "./hook-check";
import { options, UsageError } from "./options";
import { readStdin } from "./stdin";

const OPTIONS = {
  url: { type: "string" },
  deadline: { type: "string" },
  // Whether the agent's changing calls go to the desk as asks (for a hook that sees them either way).
  asks: { type: "boolean" },
  help: { type: "boolean" },
} as const;
// The hook gives up before the agent's own timeout; connect writes a deadline a minute under it.
const DEFAULT_DEADLINE_SEC = 3540;

export type HookSpec = {
  usage: string;
  /** The answer for a hook set up wrongly (its options). */
  refuse: (why: string) => object;
  /** The answer to the agent's JSON, `url` the server and `deadline` when to stop waiting (ms since the epoch). */
  handle: (raw: unknown, url: string, deadline: number, asks: boolean) => Promise<object>;
  /** The answer when handling threw: it depends on what the agent sent (`raw`, when it could be read). */
  failed: (raw: unknown, why: string) => object;
};

const answer = (o: object) => process.stdout.write(`${JSON.stringify(o)}\n`);

export async function runHook(args: string[], spec: HookSpec): Promise<number> {
  let opts: ReturnType<typeof options<typeof OPTIONS>>;
  try {
    opts = options(args, OPTIONS);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    answer(spec.refuse(error.message));
    return 0;
  }
  if (opts.help) {
    console.log(spec.usage);
    return 0;
  }
  const url = opts.url ?? DEFAULT_URL;
  const deadline = Date.now() + Number(opts.deadline ?? DEFAULT_DEADLINE_SEC) * 1000;
  let raw: unknown;
  // Whatever is still waiting at the deadline (a read, a request), the hook answers then, with the refusal.
  const watchdog = setTimeout(
    () => {
      answer(spec.failed(raw, "no answer from Plangate before the hook's deadline"));
      process.exit(0);
    },
    Math.max(0, deadline - Date.now()) + 1_000,
  );
  try {
    raw = JSON.parse((await readStdin()) || "{}");
    if ((raw as Record<string, unknown> | null)?.[CHECK_KEY] === true) await answerCheck(url);
    else answer(await spec.handle(raw, url, deadline, opts.asks === true));
  } catch (error) {
    answer(spec.failed(raw, error instanceof Error ? error.message : String(error)));
  } finally {
    clearTimeout(watchdog);
    // The answer is out, and agents read it when the hook ends: a request it gave up on must not keep it running.
    setTimeout(() => process.exit(0), 500).unref();
  }
  return 0;
}
