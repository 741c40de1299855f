import "server-only";
import type { Insertable } from "kysely";
import { z } from "zod";
import { covers } from "../../auth/rules/rights";
import { DEFAULT_NOTIFY, type NotifyPolicy, notifyPolicyOf } from "../../notify/rules/notify-policy";
import { DEFAULT_POLICY, type ReviewPolicy } from "../../review/rules/review-policy";
import { type Conn, kysely } from "../client";
import type { ReviewPolicy as ReviewPolicyTable } from "../generated-kysely/types";

/**
 * Home of ReviewPolicy: one row per workspace root or workspace an owner set a policy on. The policy of the
 * deepest row covering a workspace applies; with none, DEFAULT_POLICY (one approval, self-approval allowed).
 */
export type StoredPolicy = ReviewPolicy & {
  path: string;
  /** The `.plangate/reviewers` content an owner trusted (applied as trusted), and its hash. */
  owners: string | null;
  ownersHash: string | null;
  /** Issue 46: when a waiting item's people are reminded and its owners told. */
  notify: NotifyPolicy;
  updatedAt: Date | null;
  updatedBy: string | null;
};

// What the JSON columns hold; a row written by an older version that fails this is read as no rules.
const pathRules = z.array(
  z.object({ patterns: z.array(z.string()), reviewers: z.array(z.string()), approvals: z.number().int() }),
);
const teams = z.record(z.string(), z.array(z.string()));

function json<T>(schema: z.ZodType<T>, text: string, fallback: T): T {
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : fallback;
  } catch {
    return fallback;
  }
}

type Row = {
  path: string;
  approvals: number;
  allowSelfApproval: boolean | number;
  paths: string;
  teams: string;
  owners: string | null;
  ownersHash: string | null;
  notify: string;
  updatedAt: Date;
  updatedBy: string | null;
};

function view(row: Row): StoredPolicy {
  return {
    path: row.path,
    approvals: row.approvals,
    allowSelfApproval: Boolean(row.allowSelfApproval),
    paths: json(pathRules, row.paths, []),
    teams: json(teams, row.teams, {}),
    owners: row.owners,
    ownersHash: row.ownersHash,
    notify: notifyPolicyOf(row.notify),
    updatedAt: row.updatedAt,
    updatedBy: row.updatedBy,
  };
}

const COLUMNS = [
  "path",
  "approvals",
  "allowSelfApproval",
  "paths",
  "teams",
  "owners",
  "ownersHash",
  "notify",
  "updatedAt",
  "updatedBy",
] as const;

/** The policy in force for `workspace`: the deepest covering row's, else the default (path null). */
export async function policyFor(conn: Conn, workspace: string): Promise<StoredPolicy> {
  // The workspace and each folder above it: one lookup by primary key, never a scan of every policy.
  const parts = workspace.split("/").filter(Boolean);
  const above = ["/", ...parts.map((_, i) => `/${parts.slice(0, i + 1).join("/")}`)];
  const rows = await kysely(conn).selectFrom("ReviewPolicy").select(COLUMNS).where("path", "in", above).execute();
  const [deepest] = rows.filter((r) => covers(r.path, workspace)).sort((a, b) => b.path.length - a.path.length);
  if (deepest) return view(deepest);
  return {
    ...DEFAULT_POLICY,
    path: workspace,
    owners: null,
    ownersHash: null,
    notify: DEFAULT_NOTIFY,
    updatedAt: null,
    updatedBy: null,
  };
}

/**
 * Sets the policy of exactly `path` (a workspace root or workspace); the trusted owners file stays as it was, and so
 * do the notify settings unless they are given.
 */
export async function savePolicy(
  conn: Conn,
  path: string,
  policy: ReviewPolicy & { notify?: NotifyPolicy | undefined },
  by: string,
): Promise<void> {
  await upsert(conn, path, by, {
    approvals: policy.approvals,
    allowSelfApproval: policy.allowSelfApproval,
    paths: JSON.stringify(policy.paths),
    teams: JSON.stringify(policy.teams),
    ...(policy.notify ? { notify: JSON.stringify(policy.notify) } : {}),
  });
}

/** Trusts (or, with null, stops trusting) a `.plangate/reviewers` content for `path`, keeping its rules as set. */
export async function saveTrustedOwners(
  conn: Conn,
  path: string,
  owners: { text: string; hash: string } | null,
  by: string,
): Promise<void> {
  await upsert(conn, path, by, { owners: owners?.text ?? null, ownersHash: owners?.hash ?? null });
}

/** Writes these columns of `path`'s row (made with the defaults when there is none), stamped with who and when. */
async function upsert(
  conn: Conn,
  path: string,
  by: string,
  columns: Omit<Insertable<ReviewPolicyTable>, "path" | "updatedAt" | "updatedBy">,
) {
  const values = { ...columns, updatedAt: new Date(), updatedBy: by };
  await kysely(conn)
    .insertInto("ReviewPolicy")
    .values({ path, ...values })
    .onConflict((oc) => oc.column("path").doUpdateSet(values))
    .execute();
}
