import type { Db } from "../db/client";
import {
  latestApproval,
  latestWorkspaceManifest,
  recordBaselineTree,
  toolCalledSinceApproval,
} from "../db/plans/baseline-tree";
import type { Executor } from "../db/client";
import { newId } from "../id";
import { acquireLease, claimLease, keepLease, releaseLease } from "../session/lease";
import { appendEvents } from "../session/append-events";
import { MANIFEST_LIMITS, parseManifest, takeManifest } from "./file-manifest";
import { isGitWorkspace, ownFolders, snapshotTree } from "./git-snapshot";

/*
 * Verification diffs the workspace against the tree it was in when the plan was approved. Snapshotting a large
 * repository takes 100+ ms, too long to sit in the approval request, yet it must be taken before the agent's
 * first post-approval tool call. So the decision's transaction takes the session's turn lease (every drive needs
 * it), the request answers, and the snapshot is written before the lease is let go and the session driven.
 * A process that dies in between leaves the baseline owed (still NULL): the next kick takes it before driving,
 * unless a tool has been called since the approval. A snapshot then would count the agent's work as approved,
 * so the baseline is recorded as lost instead, and verification says so.
 */

/** baselineTree of an approval whose workspace was not captured in time: verification must not trust git. */
export const BASELINE_LOST = "lost";
/** baselineTree of an approval whose workspace is not captured: an outside agent's (its folder is its own, and
 * Plangate verifies nothing there), or one approved before workspaces without git got a manifest. */
export const BASELINE_NONE = "none";
/** baselineTree of an approval outside a git repository: its manifest (baselineManifest) is the baseline. */
export const BASELINE_MANIFEST = "manifest";

/** A lease taken in the decision's transaction, and what the snapshot needs. */
export type HeldBaseline = { token: string; versionId: string; workspace: string };
type Owed = { versionId: string; reviewId: string | null; workspace: string };

const inFlight = new Map<string, Promise<void>>();
/** How long a fresh approval's snapshot waits for the decision's own delivery to finish first. */
const YIELD_MS = 25;

/**
 * In the decision's transaction: the session's lease, so nothing drives it until the baseline is written. Null
 * when another holder has it (a drive finishing its loop): the kick after the commit then competes for it.
 */
export async function holdForBaseline(run: Executor, sessionId: string): Promise<string | null> {
  // On the transaction's runner: the claim commits with the decision.
  return claimLease(run, sessionId, `baseline:${newId("lse")}`);
}

/** The latest approval's baseline when it is still owed: not yet written. */
async function owedBaseline(db: Db, sessionId: string): Promise<Owed | null> {
  const row = await latestApproval(db, sessionId);
  if (!row || row.baselineTree !== null) return null;
  return { versionId: row.versionId, reviewId: row.reviewId, workspace: row.workspace };
}

/** Whether the latest approval's baseline is still owed (a drive that got the lease first must let it be taken). */
export async function baselineOwed(db: Db, sessionId: string): Promise<boolean> {
  return (await owedBaseline(db, sessionId)) !== null;
}

/** Whether a tool was called after the approval (an approval that cannot be placed in the log counts as yes). */
async function toolCalledSince(db: Db, sessionId: string, reviewId: string | null): Promise<boolean> {
  if (!reviewId) return true;
  return toolCalledSinceApproval(db, sessionId, reviewId);
}

/** The workspace as it stands: a git tree in a repository, otherwise a manifest of its files. */
async function snapshot(db: Db, workspace: string): Promise<{ tree: string; manifest?: string } | null> {
  if (!isGitWorkspace(workspace)) {
    // The workspace's previous baseline, when there is one: its unchanged files are not read again.
    const earlier = parseManifest(await latestWorkspaceManifest(db, workspace).catch(() => null));
    const manifest = await takeManifest(workspace, MANIFEST_LIMITS, ownFolders(workspace), earlier);
    return { tree: BASELINE_MANIFEST, manifest: JSON.stringify(manifest) };
  }
  const tree = await snapshotTree(workspace);
  return tree ? { tree } : null;
}

async function take(db: Db, sessionId: string, token: string, owed: Owed, fresh: boolean): Promise<void> {
  const stopRenewing = keepLease(db, sessionId, token);
  try {
    // Right after a decision: its events go out to the open pages before the snapshot's set-up, spawn and CPU
    // burst compete with them (on a small machine that shows in the decision's latency); the agent waits anyway.
    if (fresh) await new Promise((resolve) => setTimeout(resolve, YIELD_MS));
    // A lease held since the decision's commit rules out tools in between; one taken later must check.
    const late = !fresh && (await toolCalledSince(db, sessionId, owed.reviewId));
    const taken = late ? null : await snapshot(db, owed.workspace).catch(() => null);
    const tree = taken?.tree ?? null;
    const written = await recordBaselineTree(db, {
      versionId: owed.versionId,
      tree: tree ?? BASELINE_LOST,
      ...(taken?.manifest ? { manifest: taken.manifest } : {}),
      sessionId,
      leaseToken: token,
    });
    if (written) {
      if (!tree) {
        const why = late ? "a tool ran before it could be taken" : "the snapshot failed";
        const text = `The workspace was not captured when the plan was approved (${why}): verification will not see changes made outside the tools.`;
        await appendEvents(db, sessionId, [{ type: "notice", payload: { level: "warning", text } }]);
      }
    }
  } finally {
    stopRenewing();
    await releaseLease(db, sessionId, token);
  }
}

/**
 * Before a session is driven: takes the baseline its latest approval still owes. With `held` (the decision's own
 * lease) it goes straight to the snapshot; otherwise it looks, and leaves it to whoever holds the lease.
 */
export async function takeOwedBaseline(db: Db, sessionId: string, held?: HeldBaseline): Promise<void> {
  const owed = held
    ? { versionId: held.versionId, reviewId: null, workspace: held.workspace }
    : await owedBaseline(db, sessionId);
  if (!owed) return;
  const token = held?.token ?? (await acquireLease(db, sessionId));
  // Held elsewhere: by another baseline (it drives when done) or by a drive already under way.
  if (!token) return;
  const work = take(db, sessionId, token, owed, held !== undefined);
  const settled = work.catch(() => undefined);
  inFlight.set(sessionId, settled);
  try {
    await work;
  } finally {
    if (inFlight.get(sessionId) === settled) inFlight.delete(sessionId);
  }
}

/** Lets a verification started during the snapshot see its result rather than a baseline not yet written. */
export async function baselineSettled(sessionId: string): Promise<void> {
  await inFlight.get(sessionId);
}
