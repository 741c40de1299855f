import { type Db, withTransaction } from "../db/client";
import { appendAudit } from "../db/people/audit";
import { type Signer, signedBy } from "../auth/rules/rights";
import { AppError } from "../errors";
import { waitsForTrust, workspaceConfigFor } from "./effective-config";
import { deleteTrust, saveTrust } from "./trust-store";
import type { ConfigTrustView } from "./views/config-trust-view";

export type { ConfigTrustView } from "./views/config-trust-view";

export async function describeConfigTrust(db: Db, workspace: string): Promise<ConfigTrustView> {
  const c = await workspaceConfigFor(db, workspace);
  return {
    workspace,
    hash: c.hash,
    trusted: c.trusted,
    widening: c.widening,
    waiting: waitsForTrust(c),
    error: c.raw.error ?? null,
    trust: c.trust,
  };
}

/**
 * A person trusts the config they were shown: `hash` must be the file's content now, or the file changed
 * between reading and trusting and nothing is trusted. Trust lasts until the file changes.
 */
export async function trustConfig(db: Db, workspace: string, hash: string, by: Signer): Promise<ConfigTrustView> {
  const now = await workspaceConfigFor(db, workspace);
  // A file refused as unreadable has no hash either: its problem is the answer, not "there is no file".
  if (now.raw.error !== undefined)
    throw new AppError("bad_request", `The config cannot be trusted as it is: ${now.raw.error}`);
  if (now.hash === null) throw new AppError("not_found", `${workspace} has no .plangate/config.json to trust.`);
  if (now.hash !== hash) throw new AppError("config_changed", undefined, { hash: now.hash });
  await withTransaction(db, async (trx) => {
    await saveTrust(trx, workspace, hash, signedBy(by));
    await appendAudit(trx, { signer: by, kind: "trust.granted", workspace, subject: hash });
  });
  return describeConfigTrust(db, workspace);
}

/** Takes trust back: the config's widening parts stop applying at the next step of every session there. */
export async function revokeConfigTrust(db: Db, workspace: string, by: Signer): Promise<ConfigTrustView> {
  await withTransaction(db, async (trx) => {
    const was = await deleteTrust(trx, workspace);
    if (was === null) throw new AppError("not_found", `Nothing is trusted for ${workspace}.`);
    await appendAudit(trx, { signer: by, kind: "trust.revoked", workspace, subject: was.hash });
  });
  return describeConfigTrust(db, workspace);
}
