import type { VerificationView } from "@/lib/verify/views/verification-view";
import { SendBackButton } from "./send-back-button";

const BADGE: Record<string, string> = {
  done: "bg-emerald-100 text-emerald-900 dark:bg-emerald-900/40 dark:text-emerald-100",
  unverified: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  failing: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100",
  deviated: "bg-amber-100 text-amber-900 dark:bg-amber-900/40 dark:text-amber-100",
  missing: "bg-rose-100 text-rose-900 dark:bg-rose-900/40 dark:text-rose-100",
  unchecked: "bg-zinc-200 text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200",
};

// "done" only with a check behind it; a change alone says so.
const WORD: Record<string, string> = {
  done: "done, checked",
  unverified: "unverified: changed, not checked",
  failing: "changed, tests fail",
  deviated: "deviated",
  missing: "not done",
  unchecked: "not checkable",
};

/** A plan step's inline Markdown as text: `code` shown as code, emphasis markers dropped. */
function InlineText({ text }: { text: string }) {
  const parts = text.replace(/(\*\*|__)(.+?)\1/g, "$2").split(/(`[^`]+`)/);
  return (
    <>
      {parts.map((p, i) =>
        p.startsWith("`") && p.endsWith("`") && p.length > 1 ? (
          <code key={i}>{p.slice(1, -1)}</code>
        ) : (
          <span key={i}>{p}</span>
        ),
      )}
    </>
  );
}

/** The follow-up a failed verification sends to the agent: what is missing, deviated, unplanned, failing. */
export function followUp(v: VerificationView): string {
  const r = v.report;
  const lines = [`Verification against the approved plan (version ${v.planVersion}) failed. Please finish the plan:`];
  for (const i of r.items.filter((x) => x.status === "missing" || x.status === "deviated"))
    lines.push(`- ${i.status}: ${i.text} (${i.reason})`);
  if (r.unplanned.length) lines.push(`- unplanned changes to review: ${r.unplanned.join(", ")}`);
  if (r.test && !r.test.passed && r.test.notRun === undefined)
    lines.push(`- the verify command \`${r.test.command}\` failed:`, "```", r.test.outputTail.slice(-1500), "```");
  return lines.join("\n");
}

const HEADLINE: Record<string, { word: string; tone: string }> = {
  pass: { word: "passed", tone: "text-emerald-800 dark:text-emerald-300" },
  fail: { word: "failed", tone: "text-rose-800 dark:text-rose-300" },
  unverified: { word: "unverified: changed, not checked", tone: "text-amber-900 dark:text-amber-200" },
};

/** How the verdicts were reached, in words. */
function how(r: VerificationView["report"]): string {
  if (r.method !== "deterministic") return "graded by a verifier model";
  const ran = r.test !== null && r.test.notRun === undefined;
  return ran
    ? "the files that changed, checked by the verify command"
    : "the files that changed; no verify command ran";
}

/** A verification report: per plan item its verdict and evidence, unplanned changes, the test run. */
export function VerificationReport({ verification }: { verification: VerificationView }) {
  const r = verification.report;
  const headline = HEADLINE[r.status] ?? HEADLINE.fail!;
  return (
    <div data-testid="verification-report" data-status={r.status} className="mt-1 flex flex-col gap-2">
      <p className="text-sm font-medium">
        Verification of plan version {verification.planVersion}:{" "}
        <span data-testid="verification-status" className={headline.tone}>
          {headline.word}
        </span>{" "}
        <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">({how(r)})</span>
      </p>
      {r.status === "unverified" ? (
        <p data-testid="verification-not-checked" role="note" className="text-xs text-amber-900 dark:text-amber-200">
          {r.test === null
            ? "Nothing checked that the changes work: this workspace has no verify command. Set one (verify.command in .plangate/config.json), trust the config, and allow it when asked."
            : "Nothing checked that the changes work: the verify command did not run (see below)."}
        </p>
      ) : null}
      <ul className="flex flex-col gap-1 text-xs">
        {r.items
          .filter((i) => i.status !== "unchecked")
          .map((i) => (
            <li key={i.id} data-testid="verification-item" data-status={i.status}>
              <span className={`mr-1 rounded px-1 ${BADGE[i.status]}`}>{WORD[i.status] ?? i.status}</span>
              <InlineText text={i.text} />
              {/* Every verdict says why; the files that back it follow. */}
              <span data-testid="verification-reason" className="text-zinc-600 dark:text-zinc-400">
                {" "}
                · {i.reason}
                {i.evidence.length ? `: ${i.evidence.join(", ")}` : ""}
              </span>
            </li>
          ))}
      </ul>
      {r.gitUnchecked ? (
        <p data-testid="verification-unseen" role="note" className="text-xs text-amber-900 dark:text-amber-200">
          Changes made outside the tools (by shell commands) were not checked: {r.gitUnchecked}.
        </p>
      ) : null}
      {r.items.some((i) => i.status === "unchecked") ? (
        <div data-testid="verification-unchecked" className="text-xs">
          <p className="font-medium">Not checkable from the changes (they pass or fail nothing):</p>
          <ul>
            {r.items
              .filter((i) => i.status === "unchecked")
              .map((i) => (
                <li key={i.id} data-testid="verification-item" data-status="unchecked">
                  <InlineText text={i.text} /> <span className="text-zinc-600 dark:text-zinc-400">· {i.reason}</span>
                </li>
              ))}
          </ul>
        </div>
      ) : null}
      {r.unplanned.length ? (
        <p data-testid="verification-unplanned" className="text-xs">
          Unplanned changes: {r.unplanned.join(", ")}
        </p>
      ) : null}
      {r.test ? (
        <details className="text-xs" open={!r.test.passed && r.test.notRun === undefined}>
          <summary data-testid="verification-test">
            Verify command <code>{r.test.command}</code>:{" "}
            {r.test.notRun !== undefined
              ? `not run (${r.test.notRun})`
              : r.test.passed
                ? "passed"
                : r.test.timedOut
                  ? "timed out"
                  : `failed (exit ${r.test.exitCode})`}
          </summary>
          <pre className="mt-1 max-h-64 overflow-auto whitespace-pre-wrap rounded bg-zinc-100 p-2 dark:bg-zinc-900">
            {r.test.outputTail}
          </pre>
        </details>
      ) : null}
      {r.status === "fail" ? <SendBackButton sessionId={verification.sessionId} text={followUp(verification)} /> : null}
    </div>
  );
}
