import picomatch from "picomatch";

/**
 * Who must approve which plan (issue 27): pure, over plain data. A workspace's policy lives in the database (the
 * repository cannot lower it); a repository may add owners through `.plangate/reviewers` once an owner trusted
 * that file's content. One pattern language for both: gitignore-style globs, where `*` stays within a folder,
 * `**` crosses folders, a pattern without a slash matches a file name at any depth, and a folder's name (or a
 * pattern ending in `/`) covers everything under it.
 */

/** A path rule: a plan naming a file one of `patterns` matches needs `approvals` of these reviewers. */
export type PathRule = { patterns: string[]; reviewers: string[]; approvals: number };

export type ReviewPolicy = {
  /** Distinct people (or the operator, for a plain one-approval rule) who must approve every plan. */
  approvals: number;
  /** Whether the person who started the session may be an approval a rule needs. */
  allowSelfApproval: boolean;
  paths: PathRule[];
  /** Named groups of people by email: a reviewer `team:<name>` is any of them. */
  teams: Record<string, string[]>;
};

export const DEFAULT_POLICY: ReviewPolicy = { approvals: 1, allowSelfApproval: true, paths: [], teams: {} };

/** One line of `.plangate/reviewers` (CODEOWNERS syntax): a pattern and its owners (emails, `team:<name>`). */
export type OwnersLine = { pattern: string; owners: string[] };

/** An approval of the version under review. The operator has an owner's rights but is nobody by name. */
export type Approver = { by: "person"; userId: string; name: string; email: string } | { by: "operator" };

export type Requirement = {
  /** "approvals" (the workspace-wide count), "path" (a policy rule) or "owners" (the repository's file). */
  kind: "approvals" | "path" | "owners";
  need: number;
  /** Who may satisfy it: emails and `team:` names; empty for the workspace-wide count (anyone who may decide). */
  reviewers: string[];
  /** The plan's files that brought the rule in. */
  files: string[];
  /** The names of the approvals that count for it. */
  have: string[];
  met: boolean;
};

export type PolicyVerdict = { met: boolean; requirements: Requirement[]; summary: string };

/** Gitignore-style: true when `pattern` matches the workspace-relative `file`. */
export function patternMatches(pattern: string, file: string): boolean {
  let p = pattern.trim().replace(/^\/+/, "");
  if (!p) return false;
  if (p.endsWith("/")) p = `${p}**`;
  const opts = { dot: true, basename: !p.includes("/") };
  if (picomatch(p, opts)(file)) return true;
  // A folder's name covers what is under it; `docs/*` stays one level deep, as `*` never crosses a folder.
  const last = p.split("/").at(-1) ?? "";
  return !last.includes("*") && picomatch(`${p}/**`, { dot: true })(file);
}

/** Parses `.plangate/reviewers`: `pattern owner owner…` per line, `#` comments, `@name` meaning `team:name`. */
export function parseOwners(text: string): OwnersLine[] {
  const out: OwnersLine[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) continue;
    const [pattern, ...owners] = line.split(/\s+/);
    if (!pattern || owners.length === 0) continue;
    out.push({ pattern, owners: owners.map((o) => (o.startsWith("@") ? `team:${o.slice(1)}` : o.toLowerCase())) });
  }
  return out;
}

const lower = (s: string) => s.trim().toLowerCase();

function qualifies(policy: ReviewPolicy, reviewers: readonly string[], email: string): boolean {
  const me = lower(email);
  return reviewers.some((r) =>
    r.startsWith("team:") ? (policy.teams[r.slice(5)] ?? []).some((m) => lower(m) === me) : lower(r) === me,
  );
}

const nameOf = (a: Approver) => (a.by === "operator" ? "operator" : a.name);

/**
 * Whether a plan naming `files` is approved enough. The workspace-wide count always applies (that many
 * distinct approvals); every path rule that matches a file must be met by its own reviewers; the repository's
 * owners add one requirement per set of owners its matching lines give a file (every matching line adds its
 * owners: a union, never last-match-wins). One approval counts toward every rule it meets. With self-approval
 * off, the person who started the session counts for nothing. The operator counts for a plain one-approval
 * rule only, never for a rule that names people.
 */
export function judgePolicy(input: {
  policy: ReviewPolicy;
  files: readonly string[];
  approvals: readonly Approver[];
  starter: string | null;
  owners?: readonly OwnersLine[];
}): PolicyVerdict {
  const { policy, files } = input;
  const seen = new Set<string>();
  const counted = input.approvals.filter((a) => {
    const key = a.by === "operator" ? "operator" : a.userId;
    if (seen.has(key)) return false;
    seen.add(key);
    return policy.allowSelfApproval || a.by === "operator" || a.userId !== input.starter;
  });
  const people = counted.filter((a): a is Extract<Approver, { by: "person" }> => a.by === "person");
  const requirements: Requirement[] = [];
  const overall = policy.approvals === 1 ? counted : people;
  requirements.push({
    kind: "approvals",
    need: policy.approvals,
    reviewers: [],
    files: [],
    have: overall.map(nameOf),
    met: overall.length >= policy.approvals,
  });
  for (const rule of policy.paths) {
    const hit = files.filter((f) => rule.patterns.some((p) => patternMatches(p, f)));
    if (hit.length === 0) continue;
    const have = people.filter((a) => qualifies(policy, rule.reviewers, a.email));
    requirements.push({
      kind: "path",
      need: rule.approvals,
      reviewers: rule.reviewers,
      files: hit,
      have: have.map(nameOf),
      met: have.length >= rule.approvals,
    });
  }
  const bySet = new Map<string, { owners: string[]; files: string[] }>();
  for (const file of files) {
    const owners = [
      ...new Set((input.owners ?? []).filter((l) => patternMatches(l.pattern, file)).flatMap((l) => l.owners)),
    ];
    if (owners.length === 0) continue;
    const key = [...owners].sort().join(" ");
    const entry = bySet.get(key) ?? { owners, files: [] };
    entry.files.push(file);
    bySet.set(key, entry);
  }
  for (const { owners, files: hit } of bySet.values()) {
    const have = people.filter((a) => qualifies(policy, owners, a.email));
    requirements.push({
      kind: "owners",
      need: 1,
      reviewers: owners,
      files: hit,
      have: have.map(nameOf),
      met: have.length >= 1,
    });
  }
  const met = requirements.every((r) => r.met);
  return { met, requirements, summary: summarise(requirements, met) };
}

const who = (reviewers: readonly string[]) =>
  reviewers.map((r) => (r.startsWith("team:") ? `team ${r.slice(5)}` : r)).join(" or ");

/** One status line: "1 of 2 approvals · needs team db", or who approved once every rule is met. */
export function summarise(requirements: readonly Requirement[], met: boolean): string {
  const overall = requirements.find((r) => r.kind === "approvals");
  if (met) {
    const names = [...new Set(requirements.flatMap((r) => r.have))];
    return names.length ? `Approved by ${names.join(", ")}` : "Approved";
  }
  const parts: string[] = [];
  if (overall)
    parts.push(
      `${Math.min(overall.have.length, overall.need)} of ${overall.need} approval${overall.need === 1 ? "" : "s"}`,
    );
  for (const r of requirements)
    if (r.kind !== "approvals" && !r.met)
      parts.push(
        r.need > 1 ? `needs ${r.need - r.have.length} more of ${who(r.reviewers)}` : `needs ${who(r.reviewers)}`,
      );
  return parts.join(" · ");
}

/**
 * Whether `me` approving now would move the review on: some requirement still open would count them. What
 * "Waiting for you" puts first (a review only others can satisfy waits for them, not for you).
 */
export function canAdvance(input: Parameters<typeof judgePolicy>[0], me: Approver): boolean {
  const before = judgePolicy(input).requirements;
  const after = judgePolicy({ ...input, approvals: [...input.approvals, me] }).requirements;
  return after.some((r, i) => !before[i]?.met && r.have.length > (before[i]?.have.length ?? 0));
}

/**
 * A pattern an approval left held, and the people it belongs to: emails, lowercase, with `team:` names expanded as
 * the policy had them at the approval. Only one of them answers an ask to change a file under it (or an owner's
 * override, with a reason). Recorded with the approval, so a later change of the policy does not move it.
 */
export type HeldRule = { pattern: string; reviewers: string[] };

/**
 * What an approval leaves held: every path rule and owners line whose own reviewers did not approve (as many as
 * the rule needs), whether or not the plan named a file there, with whom each belongs to. The work after the
 * approval asks one of them before it changes a file under one: it is outside what those reviewers approved.
 */
export function heldRules(input: Omit<Parameters<typeof judgePolicy>[0], "files">): HeldRule[] {
  const { policy } = input;
  const people = input.approvals.filter(
    (a): a is Extract<Approver, { by: "person" }> =>
      a.by === "person" && (policy.allowSelfApproval || a.userId !== input.starter),
  );
  const count = (reviewers: readonly string[]) =>
    new Set(people.filter((a) => qualifies(policy, reviewers, a.email)).map((a) => a.userId)).size;
  const emails = (reviewers: readonly string[]) => [
    ...new Set(reviewers.flatMap((r) => (r.startsWith("team:") ? (policy.teams[r.slice(5)] ?? []) : [r])).map(lower)),
  ];
  return [
    ...policy.paths
      .filter((r) => count(r.reviewers) < r.approvals)
      .flatMap((r) => r.patterns.map((pattern) => ({ pattern, reviewers: emails(r.reviewers) }))),
    ...(input.owners ?? [])
      .filter((l) => count(l.owners) < 1)
      .map((l) => ({ pattern: l.pattern, reviewers: emails(l.owners) })),
  ];
}

/** The patterns heldRules() leaves held, each once. */
export function heldPatterns(input: Omit<Parameters<typeof judgePolicy>[0], "files">): string[] {
  return [...new Set(heldRules(input).map((r) => r.pattern))];
}

/**
 * Whether the person with this email is one of the people every one of `rules` belongs to: who may release an ask
 * that touches them. Nobody may when a rule names nobody (a session approved before the people were recorded).
 */
export function releasesHeld(rules: readonly HeldRule[], email: string | null): boolean {
  if (rules.length === 0 || email === null) return false;
  const me = lower(email);
  return rules.every((r) => r.reviewers.includes(me));
}

/** Whether a workspace-relative file lies under one of the held patterns. */
export function isHeld(file: string, held: readonly string[]): boolean {
  return held.some((p) => patternMatches(p, file));
}

/**
 * The folder a shell command may not write while this pattern is held: its literal folder (the segments before
 * the first wildcard), workspace-relative. A pattern with no literal folder (`*.sql`, `README`) has none: the OS
 * cannot hold it, so a command that may write asks a person instead.
 */
export function heldFolder(raw: string): string | null {
  const segments = raw.trim().replace(/^\/+/, "").replace(/\/+$/, "").split("/");
  if (segments.length < 2 && !raw.trim().endsWith("/")) return null;
  const literal: string[] = [];
  for (const s of segments) {
    if (/[*?[\]{}!]/.test(s)) break;
    literal.push(s);
  }
  return literal.length > 0 && !literal.includes("..") ? literal.join("/") : null;
}

/** The folders a shell command gets read-only while these patterns are held. */
export function heldFolders(held: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of held) {
    const folder = heldFolder(raw);
    if (folder !== null) out.add(folder);
  }
  return [...out];
}
