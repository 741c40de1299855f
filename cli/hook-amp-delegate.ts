// `plangate hook amp-delegate --url URL [--deadline SECONDS] [--asks]`: the permission delegate `plangate connect
// amp` names as the first rule of a project's `.amp/settings.json` (through a script: Amp runs a delegate with no
// arguments). Amp runs it before every tool call, the call's arguments on stdin and the tool's name and thread in
// its environment, and reads its exit code: 0 allow, 1 ask (Amp's own dialog), anything else refuse with stderr as
// the reason; a delegate that cannot start refuses too. So every path here ends in an explicit exit, and any
// failure is a refusal. Amp puts no timeout on a delegate: the hook's own deadline ends a wait on the desk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AMP_EXIT, type AmpDecision, ampAsks, approvalKey, beforeApproval, readsOnly } from "../lib/external/amp-hook";
import { ampToolInput } from "../lib/external/amp-hook-input";
import { DELEGATE_ASK_EXIT } from "./amp-delegate-file";
import { rememberedApproval } from "./approved-notes";
import { askAndWait } from "./await-review";
import { configDir, DEFAULT_URL } from "./client";
import { isConnected } from "./connections";
import { options, UsageError } from "./options";

const OPTIONS = { url: { type: "string" }, deadline: { type: "string" }, asks: { type: "boolean" } } as const;
const MAX_INPUT = 16 * 1024 * 1024;

const refuse = (reason: string): AmpDecision => ({ exit: AMP_EXIT.refuse, reason: `Plangate: ${reason}` });

/** All of stdin (Amp misreads a delegate that exits before it has written it all), the first MAX_INPUT bytes kept. */
async function readInput(): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size <= MAX_INPUT) chunks.push(chunk as Buffer);
  }
  return size > MAX_INPUT ? null : Buffer.concat(chunks).toString("utf8");
}

/** The real path of what a reading call names, as far as it exists (a link into Plangate's folder is followed). */
function real(p: string): string {
  let at = p;
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(at), ...rest);
    } catch {
      const up = path.dirname(at);
      if (up === at) return p;
      rest.unshift(path.basename(at));
      at = up;
    }
  }
}

/** A glob's folder: the path up to its first segment with a wildcard. */
const staticPart = (pattern: string) => {
  const parts = pattern.split("/");
  const at = parts.findIndex((x) => /[*?[{]/.test(x));
  return at === -1 ? pattern : parts.slice(0, at).join("/") || (pattern.startsWith("/") ? "/" : ".");
};

/**
 * Whether a reading call would read Plangate's own folder (the saved token): a path in it, or a search from a
 * folder that holds it (a Grep or glob with no path searches the folder Amp runs in).
 */
function readsPlangate(input: Record<string, unknown>, cwd: string): boolean {
  const mine = real(configDir());
  const named = ["path", "filePattern"].map((k) => input[k]).filter((v): v is string => typeof v === "string");
  return (named.length > 0 ? named : [cwd]).some((t) => {
    const p = real(path.resolve(cwd, staticPart(t.replace(/^~(?=\/|$)/, os.homedir()))));
    return !path.relative(mine, p).startsWith("..") || !path.relative(p, mine).startsWith("..");
  });
}

async function decide(url: string, deadline: number, asks: boolean): Promise<AmpDecision> {
  const text = await readInput();
  if (text === null) return refuse("the call's arguments are over 16 MiB; not allowed.");
  const tool = process.env.AGENT_TOOL_NAME;
  if (!tool) return refuse("the delegate was not run by Amp (no AGENT_TOOL_NAME); not allowed.");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const input = ampToolInput.safeParse(parsed);
  if (!input.success) return refuse(`the delegate could not read ${tool}'s arguments; not allowed.`);
  const cwd = process.cwd();
  if (readsOnly(tool))
    return readsPlangate(input.data, cwd)
      ? refuse(`${tool} may not read Plangate's own files (its token and state); not allowed.`)
      : { exit: AMP_EXIT.allow };
  // A project taken out of Plangate whose settings still name the delegate: Amp's own dialog decides.
  if (!isConnected("amp", cwd)) return { exit: AMP_EXIT.ask };
  const thread = process.env.AMP_THREAD_ID;
  if (!thread) return refuse(`Amp named no thread, so no approved plan covers this ${tool} call; not allowed.`);
  if (!(await rememberedApproval(url, "amp", approvalKey(thread, cwd)))) return beforeApproval(tool);
  if (!asks) return { exit: AMP_EXIT.allow };
  const wanted = ampAsks(tool, input.data, cwd);
  if (wanted === null)
    return refuse(`Plangate could not read this ${tool} call, or it runs outside the project; it is not allowed.`);
  for (const ask of wanted) {
    const reply = await askAndWait(
      url,
      { agent: "amp", externalSessionId: thread, cwd, machine: os.hostname(), ...ask },
      deadline,
    );
    if (reply === null) return refuse(`Plangate (${url}) gave no answer for this ${tool} call: not allowed.`);
    if (!["allow", "once", "always"].includes(reply.status))
      return refuse(reply.message ?? "A person refused this call on Plangate.");
  }
  return { exit: AMP_EXIT.allow };
}

function answer(d: AmpDecision): never {
  if (d.exit === AMP_EXIT.refuse) process.stderr.write(`${d.reason}\n`);
  // Exit at once: a request given up on must not hold Amp, which waits for the delegate without a limit.
  process.exit(d.exit === AMP_EXIT.ask ? DELEGATE_ASK_EXIT : d.exit);
}

export async function run(args: string[]): Promise<number> {
  // Whatever ends the process unplanned (an empty event loop, a throw nobody awaited) ends it as a refusal.
  process.exitCode = AMP_EXIT.refuse;
  process.on("uncaughtException", (e) => answer(refuse(`the delegate failed (${e.message}); not allowed.`)));
  let opts: ReturnType<typeof options<typeof OPTIONS>>;
  try {
    opts = options(args, OPTIONS);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    answer(refuse(`the delegate was set up wrongly (${error.message}): run plangate connect amp again.`));
  }
  const url = opts.url ?? DEFAULT_URL;
  const deadline = Date.now() + Number(opts.deadline ?? 3540) * 1000;
  setTimeout(
    () => answer(refuse(`no answer from Plangate (${url}) before the delegate's deadline; not allowed.`)),
    Math.max(0, deadline - Date.now()) + 1_000,
  );
  try {
    answer(await decide(url, deadline, opts.asks === true));
  } catch (error) {
    answer(refuse(`the delegate failed (${error instanceof Error ? error.message : String(error)}); not allowed.`));
  }
}
