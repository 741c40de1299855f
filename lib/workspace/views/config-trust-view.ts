/** A person's trust in one content of a workspace's `.plangate/config.json`. */
export type TrustView = { workspace: string; hash: string; trustedAt: string; trustedBy: string };

/** What a person sees before trusting a workspace's config, and after. */
export type ConfigTrustView = {
  workspace: string;
  /** sha-256 of the file as it is now (what "Trust" trusts); null without a config file. */
  hash: string | null;
  trusted: boolean;
  /** What the file would widen; empty when nothing in it waits for a person. */
  widening: string[];
  waiting: boolean;
  /** The file is broken: nothing of it applies, trusted or not. */
  error: string | null;
  /** The trust on record, possibly for an earlier content of the file (then `trusted` is false). */
  trust: TrustView | null;
};
