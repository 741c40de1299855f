// The workspace review policy settings: reading, setting and trusting `.plangate/reviewers`, with the audit.
import "server-only";
import { createHash } from "node:crypto";
import { z } from "zod";
import { authorise, signerFor } from "../auth/authorise";
import type { Actor } from "../auth/rules/rights";
import { parseOwners, type ReviewPolicy } from "./rules/review-policy";
import { applyNotifyChange, notifyChangeSchema, type NotifyPolicy } from "../notify/rules/notify-policy";
import { type Db, withTransaction } from "../db/client";
import { policyFor, savePolicy, saveTrustedOwners, type StoredPolicy } from "../db/plans/policies";
import { appendAudit } from "../db/people/audit";
import { AppError } from "../errors";
import { getEnv } from "../env";
import { checkWorkspace } from "../workspace/check-workspace";
import { readUntrustedFile } from "../workspace/read-untrusted-file";

export const OWNERS_FILE = ".plangate/reviewers";
const MAX_OWNERS_BYTES = 64 * 1024;

const absolute = z
  .string()
  .trim()
  .min(1)
  .max(4096)
  .regex(/^\//, "an absolute path, such as /srv/work")
  .transform((p) => (p.length > 1 ? p.replace(/\/+$/, "") : p));
export const policyQuery = z.object({ workspace: absolute }).strict();

const reviewer = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .regex(/^(team:[a-z0-9_-]{1,64}|[^\s@]+@[^\s@]+)$/, "an email address or team:<name>");
const count = z.number().int().min(1).max(20);

export const policyBody = z
  .object({
    workspace: absolute,
    approvals: count,
    allowSelfApproval: z.boolean(),
    paths: z
      .array(
        z
          .object({
            patterns: z.array(z.string().trim().min(1).max(300)).min(1).max(50),
            reviewers: z.array(reviewer).min(1).max(50),
            approvals: count,
          })
          .strict(),
      )
      .max(100),
    teams: z
      .record(z.string().regex(/^[a-z0-9_-]{1,64}$/, "a team name: a-z, 0-9, _ or -"), z.array(reviewer).max(200))
      .default({}),
    // Issue 46: when waiting items' people are reminded and the owners told; a field left out stays as it is.
    notify: notifyChangeSchema.optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    b.paths.forEach((rule, i) =>
      rule.reviewers.forEach((r, j) => {
        if (r.startsWith("team:") && !(r.slice(5) in b.teams))
          ctx.addIssue({ code: "custom", path: ["paths", i, "reviewers", j], message: `no team named ${r.slice(5)}` });
      }),
    );
  });

export const trustOwnersBody = z.object({ workspace: absolute, hash: z.string().regex(/^[0-9a-f]{64}$/) }).strict();

/**
 * The repository's owners file as it is now, or null when there is none. Read as untrusted: a link leading out of
 * the workspace, anything but a regular file, or more than 64 KiB is refused, with a 400 that names the problem.
 */
export function readOwnersFile(workspace: string): { text: string; hash: string } | null {
  const got = readUntrustedFile(workspace, OWNERS_FILE, { limit: MAX_OWNERS_BYTES });
  if (got.status === "missing") return null;
  if (got.status === "refused") throw new AppError("bad_request", got.reason);
  const text = got.bytes.toString("utf8");
  return { text, hash: createHash("sha256").update(text).digest("hex") };
}

export type PolicyView = {
  workspace: string;
  /** Where the policy in force was set (the workspace itself or a root above it); null: the default. */
  from: string | null;
  policy: ReviewPolicy;
  notify: NotifyPolicy;
  owners: {
    trusted: ReturnType<typeof parseOwners>;
    trustedHash: string | null;
    /** The file as it is now (shown to an owner before they trust it). */
    fileHash: string | null;
    fileText: string | null;
    /** Why the file there is not read (a link, not a regular file, too large): shown instead of its content. */
    fileError: string | null;
  };
};

type OwnersRead = { text: string; hash: string } | { error: string } | null;

function viewOf(workspace: string, p: StoredPolicy, read: OwnersRead): PolicyView {
  const file = read !== null && "text" in read ? read : null;
  const { approvals, allowSelfApproval, paths, teams } = p;
  return {
    workspace,
    from: p.updatedAt ? p.path : null,
    policy: { approvals, allowSelfApproval, paths, teams },
    notify: p.notify,
    owners: {
      trusted: parseOwners(p.owners ?? ""),
      trustedHash: p.ownersHash,
      fileHash: file?.hash ?? null,
      fileText: file?.text ?? null,
      fileError: read !== null && "error" in read ? read.error : null,
    },
  };
}

// What the page shows: a file that cannot be read (a planted link, a FIFO, too large) is shown as no file, with why.
// Only a folder under the server's roots is read: a policy may be asked for any name (an outside agent's folder is
// a label, perhaps on another machine), and the server's disk elsewhere is not the repository's.
function fileIn(workspace: string): OwnersRead {
  try {
    if (checkWorkspace(workspace, getEnv().workspaceRoots) !== workspace) return null;
  } catch {
    return null;
  }
  try {
    return readOwnersFile(workspace);
  } catch (error) {
    return error instanceof AppError ? { error: error.message } : null;
  }
}

/** GET /api/policies?workspace=: the policy in force there, for anyone who may read the workspace. */
export async function describePolicy(db: Db, actor: Actor, workspace: string): Promise<PolicyView> {
  authorise(actor, "read", workspace);
  return viewOf(workspace, await policyFor(db, workspace), fileIn(workspace));
}

/** Issue 46: when the workspace's waiting items are followed up (the policy in force there, or the defaults). */
export async function notifyPolicyFor(db: Db, workspace: string): Promise<NotifyPolicy> {
  return (await policyFor(db, workspace)).notify;
}

/** PUT /api/policies: an owner sets the policy of exactly this workspace or root; audited with what it was. */
export async function setPolicy(db: Db, actor: Actor, body: z.infer<typeof policyBody>): Promise<PolicyView> {
  const signer = signerFor(actor, "manage", body.workspace);
  const { workspace, notify: change, ...rules } = body;
  await withTransaction(db, async (trx) => {
    const before = await policyFor(trx, workspace);
    // The timing in force (here, or from a root above for a first row here) carries on where the change is silent.
    const notify = applyNotifyChange(before.notify, change ?? {});
    if (typeof notify === "string") throw new AppError("bad_request", `notify: ${notify}`);
    const policy = { ...rules, notify };
    await savePolicy(trx, workspace, policy, signer.by === "person" ? signer.name : signer.by);
    await appendAudit(trx, {
      signer,
      kind: "policy.changed",
      workspace,
      detail: {
        before: {
          approvals: before.approvals,
          allowSelfApproval: before.allowSelfApproval,
          paths: before.paths,
          notify: before.notify,
        },
        after: policy,
      },
    });
  });
  return describePolicy(db, actor, workspace);
}

/**
 * An owner trusts the `.plangate/reviewers` content they were shown (`hash`): its owners then add requirements
 * as trusted, whatever the file says later, until an owner trusts another content.
 */
export async function trustOwners(db: Db, actor: Actor, workspace: string, hash: string): Promise<PolicyView> {
  const signer = signerFor(actor, "manage", workspace);
  const file = readOwnersFile(workspace);
  if (!file) throw new AppError("not_found", `${workspace} has no ${OWNERS_FILE} to trust.`);
  if (file.hash !== hash) throw new AppError("config_changed", undefined, { hash: file.hash });
  const by = signer.by === "person" ? signer.name : signer.by;
  await withTransaction(db, async (trx) => {
    // A first row for this workspace keeps the policy in force from above: trusting a file never lowers it.
    const inForce = await policyFor(trx, workspace);
    if (inForce.path !== workspace || !inForce.updatedAt) await savePolicy(trx, workspace, inForce, by);
    await saveTrustedOwners(trx, workspace, file, by);
    await appendAudit(trx, { signer, kind: "owners.trusted", workspace, subject: hash });
  });
  return describePolicy(db, actor, workspace);
}
