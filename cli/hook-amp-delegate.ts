// `plangate hook amp-delegate --url URL [--deadline SECONDS] [--asks]`: the permission delegate `plangate connect
// amp` names as the first rule of a project's `.amp/settings.json` (through a script: Amp runs a delegate with no
// arguments). Amp runs it before every tool call, the call's arguments on stdin and the tool's name and thread in
// its environment, and reads its exit code: 0 allow, 1 ask (Amp's own dialog), anything else refuse with stderr as
// the reason; a delegate that cannot start refuses too. So every path here ends in an explicit exit, and any
// failure is a refusal. Amp puts no timeout on a delegate: the hook's own deadline ends a wait on the desk.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AMP_EXIT, type AmpDecision, ampAsks, beforeApproval, readsOnly } from "../lib/external/amp-hook";
import { ampToolInput } from "../lib/external/amp-hook-input";
import { DELEGATE_ASK_EXIT } from "./amp-delegate-file";
import { rememberedApprovalIn } from "./approved-notes";
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

/**
 * The real path of a path as the kernel walks it (links before `..`, so `link/../x` is where the link leads), as far
 * as it exists; a path is joined to `cwd` as text, never normalised first.
 */
function real(p: string, cwd: string): string {
  let at = p.startsWith("/") ? p : `${cwd}/${p}`;
  const rest: string[] = [];
  for (;;) {
    try {
      // The native call walks the path as the kernel does; Node's own one resolves `..` as text first.
      return path.join(fs.realpathSync.native(at), ...rest);
    } catch {
      const up = path.dirname(at);
      if (up === at) return path.resolve(at, ...rest);
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

const within = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return !rel.startsWith("..") && !path.isAbsolute(rel);
};

/**
 * Whether a reading call would read Plangate's own folder (the saved token) or a process's environment (a token
 * given in it): a path in them, or a search (Grep, glob) from a folder that holds Plangate's (with no path, the
 * folder Amp runs in).
 */
function readsPlangate(tool: string, input: Record<string, unknown>, cwd: string): boolean {
  const mine = real(configDir(), "/");
  const named = ["path", "filePattern"].map((k) => input[k]).filter((v): v is string => typeof v === "string");
  const searches = tool === "Grep" || tool === "glob";
  return (named.length > 0 ? named : searches ? [cwd] : []).some((t) => {
    const p = real(staticPart(t.replace(/^~(?=\/|$)/, os.homedir())), cwd);
    return within(mine, p) || (searches && within(p, mine)) || within("/proc", p);
  });
}

/** Whether a shell call's folder (`workdir`, Bash's `cwd`) is the project or in it, links followed. */
function runsInProject(input: Record<string, unknown>, cwd: string): boolean {
  const dir = [input.workdir, input.cwd].find((v): v is string => typeof v === "string" && v !== "");
  return dir === undefined || within(real(cwd, "/"), real(dir, cwd));
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
    return readsPlangate(tool, input.data, cwd)
      ? refuse(
          `${tool} may not read Plangate's own files (its token and state), search a folder that holds them, or read /proc; not allowed.`,
        )
      : { exit: AMP_EXIT.allow };
  // A project taken out of Plangate whose settings still name the delegate: Amp's own dialog decides.
  if (!isConnected("amp", cwd)) return { exit: AMP_EXIT.ask };
  const thread = process.env.AMP_THREAD_ID;
  if (!thread) return refuse(`Amp named no thread, so no approved plan covers this ${tool} call; not allowed.`);
  if (!(await rememberedApprovalIn(url, "amp", thread, cwd))) return beforeApproval(tool);
  if (!asks) return { exit: AMP_EXIT.allow };
  const wanted = runsInProject(input.data, cwd) ? ampAsks(tool, input.data, cwd) : null;
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
