// `plangate connect <agent> --check`: proves the hook command an agent would run works (the shell finds node and
// the plangate file, the token is saved and valid, the server answers): the command is run exactly as written in
// the agent's settings, given `{"plangate_check": true}` instead of a tool call, and must say who it acts as.
import { spawnSync } from "node:child_process";
import { callServer } from "./client";

export const CHECK_KEY = "plangate_check";

/** The hook's side: who the saved token is on the server, as one JSON line. */
export async function answerCheck(url: string): Promise<void> {
  const me = await callServer(url, "GET", "/api/me").catch((e: unknown) => ({ status: 0, body: String(e) }));
  const actor = (me.body as { actor?: { kind?: string } } | null)?.actor;
  process.stdout.write(`${JSON.stringify({ plangateCheck: { url, status: me.status, as: actor?.kind ?? null } })}\n`);
}

/** The connect side: runs the command through a shell as the agent would; a line saying what it proved. */
export function runHookCheck(command: string, cwd: string): { ok: boolean; line: string } {
  const r = spawnSync("sh", ["-c", command], {
    cwd,
    input: JSON.stringify({ [CHECK_KEY]: true }),
    encoding: "utf8",
    timeout: 30_000,
  });
  const found = (r.stdout ?? "")
    .split("\n")
    .map((l) => {
      try {
        return (JSON.parse(l) as { plangateCheck?: { url: string; status: number; as: string | null } }).plangateCheck;
      } catch {
        return undefined;
      }
    })
    .find((x) => x !== undefined);
  if (!found)
    return {
      ok: false,
      line: `the hook command did not run (exit ${r.status}): ${(r.stderr ?? "").trim().slice(0, 300)}`,
    };
  if (found.status !== 200)
    return { ok: false, line: `the hook ran, but ${found.url} answered ${found.status || "nothing"} to its token` };
  if (found.as !== "agent-token")
    return {
      ok: true,
      line: `the hook ran and reached ${found.url} as ${found.as} (an agent token is safer: --email)`,
    };
  return { ok: true, line: `the hook ran and reached ${found.url} with its agent token` };
}

/** Prints each finding of a --check; exit 0 only when every one is ok. */
export function reportChecks(lines: readonly { ok: boolean; line: string }[]): number {
  for (const l of lines) console.log(`plangate: ${l.ok ? "ok" : "NOT OK"}: ${l.line}`);
  return lines.every((l) => l.ok) ? 0 : 1;
}
