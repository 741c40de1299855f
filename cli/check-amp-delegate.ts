// `plangate connect amp --check`'s delegate half: the project's first rule names the delegate, the script is
// Plangate's and current, and run as Amp runs it, it lets a read go on and refuses an edit before any plan.
import { spawnSync } from "node:child_process";
import { reportChecks } from "./hook-check";

const runAs = (script: string, project: string, tool: string, input: object) =>
  spawnSync(script, [], {
    cwd: project,
    input: JSON.stringify(input),
    encoding: "utf8",
    timeout: 30_000,
    env: { ...process.env, AGENT: "amp", AGENT_TOOL_NAME: tool, AMP_THREAD_ID: "T-plangate-check" },
  });

export function checkAmpDelegate(o: {
  /** Why the project's settings would not hand every call to the delegate (cli/amp-settings.ts). */
  problems: string[];
  script: string;
  text: string | undefined;
  expected: string;
  project: string;
}): boolean {
  const lines = [
    o.problems.length === 0
      ? { ok: true, line: `.amp/settings.json's first rule hands every call to ${o.script}` }
      : { ok: false, line: `.amp/settings.json: ${o.problems.join("; ")}: run plangate connect amp` },
    o.text === o.expected
      ? { ok: true, line: `${o.script} is Plangate's, up to date` }
      : { ok: false, line: `${o.script} is missing or stale: run plangate connect amp` },
  ];
  if (o.text !== undefined) {
    const read = runAs(o.script, o.project, "Read", { path: "README.md" });
    const edit = runAs(o.script, o.project, "edit_file", { path: "README.md", old_str: "a", new_str: "b" });
    lines.push(
      read.status === 0 && edit.status === 2
        ? { ok: true, line: "the delegate ran: a read goes on, an edit before an approved plan is refused" }
        : {
            ok: false,
            line: `the delegate answered a read ${read.status} and an edit ${edit.status} (want 0 and 2): ${(read.stderr + edit.stderr).trim().slice(0, 300)}`,
          },
    );
  }
  return reportChecks(lines) === 0;
}
