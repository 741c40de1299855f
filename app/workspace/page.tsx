import { authorise } from "@/lib/auth/authorise";
import { pageActor } from "@/lib/http/page-actor";
import Link from "next/link";
import { getDb } from "@/lib/db/client";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { listGrants } from "@/lib/session/grant-store";
import { checkWorkspace } from "@/lib/workspace/check-workspace";
import { describeConfigTrust } from "@/lib/workspace/trust-config";
import { ConfigTrustCard } from "@/components/config-trust-card";
import { SavedPermissions } from "@/components/saved-permissions";
import { ReviewPolicyForm } from "@/components/review-policy-form";
import { TrustReviewersButton } from "@/components/trust-reviewers-button";
import { may } from "@/lib/auth/rules/rights";
import { describePolicy } from "@/lib/review/manage-policy";

export const dynamic = "force-dynamic";

/** One workspace: whether its config is trusted (and what it widens), and every rule a person saved for it, each revocable. */
export default async function WorkspacePage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const actor = await pageActor();
  const raw = (await searchParams).path;
  let workspace: string | null = null;
  let problem: string | null = null;
  try {
    const checked = checkWorkspace(typeof raw === "string" ? raw : "", getEnv().workspaceRoots);
    authorise(actor, "read", checked);
    workspace = checked;
  } catch (error) {
    problem = error instanceof AppError ? error.message : String(error);
  }
  if (workspace === null) {
    return (
      <section className="flex flex-col gap-2">
        <h1 className="text-xl font-semibold">Workspace</h1>
        <p role="alert">{problem}</p>
        <Link href="/" className="underline">
          Back to the sessions
        </Link>
      </section>
    );
  }
  const db = getDb();
  const [trust, grants, policy] = await Promise.all([
    describeConfigTrust(db, workspace),
    listGrants(db, { workspace }),
    describePolicy(db, actor, workspace),
  ]);
  const { approvals, allowSelfApproval, paths } = policy.policy;
  const outside = grants.filter((g) => g.actor === "outside");
  const own = grants.filter((g) => g.actor === "agent");
  return (
    <section aria-labelledby="workspace-title" className="flex flex-col gap-4">
      <h1 id="workspace-title" className="text-xl font-semibold break-all">
        Workspace {workspace}
      </h1>
      {trust.error ? (
        <p role="alert" data-testid="config-error" className="text-sm">
          {trust.error}: nothing of it applies until it is fixed.
        </p>
      ) : trust.widening.length > 0 || trust.trust ? (
        <ConfigTrustCard view={trust} workspaceLink={false} />
      ) : (
        <p data-testid="config-trust-none" className="text-sm">
          {trust.hash
            ? "Its .plangate/config.json only narrows what agents may do: nothing in it waits for trust."
            : "It has no .plangate/config.json."}
        </p>
      )}
      <section aria-labelledby="review-policy" className="flex flex-col gap-2">
        <h2 id="review-policy" className="font-semibold">
          Review policy
        </h2>
        <p data-testid="policy-summary" className="text-sm">
          {approvals === 1 ? "One approval" : `${approvals} approvals from different people`} for every plan
          {allowSelfApproval ? "" : ", not counting the person who started the session"}
          {paths.length ? `; ${paths.length} path rule${paths.length === 1 ? "" : "s"}` : ""}.{" "}
          {policy.from && policy.from !== workspace ? `Set on ${policy.from}.` : policy.from ? "" : "The default."}
        </p>
        {may(actor, "manage", workspace) ? <ReviewPolicyForm workspace={workspace} initial={policy.policy} /> : null}
        {policy.owners.fileText !== null ? (
          <div data-testid="reviewers-file" className="flex flex-col gap-1 text-sm">
            <p>
              The repository proposes owners in <code>.plangate/reviewers</code>
              {policy.owners.fileHash === policy.owners.trustedHash
                ? " (trusted: its owners add requirements)."
                : policy.owners.trustedHash
                  ? ": it changed since it was trusted; the content trusted then still applies."
                  : ": nothing of it applies until an owner trusts it."}
            </p>
            <pre className="overflow-x-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
              {policy.owners.fileText}
            </pre>
            {policy.owners.fileHash &&
            policy.owners.fileHash !== policy.owners.trustedHash &&
            may(actor, "manage", workspace) ? (
              <TrustReviewersButton workspace={workspace} hash={policy.owners.fileHash} />
            ) : null}
          </div>
        ) : policy.owners.fileError ? (
          <p role="alert" data-testid="reviewers-file-error" className="text-sm">
            {policy.owners.fileError}: it is not read.
          </p>
        ) : null}
      </section>
      <section aria-labelledby="outside-grants" className="flex flex-col gap-1">
        <h2 id="outside-grants" className="font-semibold">
          Saved for outside agents (Claude Code, OpenCode…)
        </h2>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          They run on this machine without Plangate&apos;s sandbox: only these rules, saved with &quot;always&quot; on
          their asks, let a call go ahead without you.
        </p>
        {outside.length > 0 ? (
          <SavedPermissions grants={outside} testId="outside-grants" open />
        ) : (
          <p className="text-sm">None.</p>
        )}
      </section>
      <section aria-labelledby="agent-grants" className="flex flex-col gap-1">
        <h2 id="agent-grants" className="font-semibold">
          Saved for Plangate&apos;s own agent
        </h2>
        {own.length > 0 ? (
          <SavedPermissions grants={own} testId="agent-grants" open />
        ) : (
          <p className="text-sm">None.</p>
        )}
      </section>
    </section>
  );
}
