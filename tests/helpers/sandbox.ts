import { detectSandbox } from "../../lib/sandbox/detect-sandbox";
import type { SandboxInfo } from "../../lib/tools/types";

/**
 * The sandbox for a security suite. Without bubblewrap (and slirp4netns for the network suites) those suites skip
 * on a developer's machine and say so, but with CI set they fail: a security suite must never pass by skipping.
 * PLANGATE_SANDBOX=off is a deliberate run without the sandbox and is left alone.
 */
export function sandboxForSuite(opts: { network?: boolean } = {}): SandboxInfo {
  const sandbox = detectSandbox();
  const off = process.env.PLANGATE_SANDBOX === "off";
  const missing = !sandbox.available
    ? "bubblewrap (bwrap) cannot run here"
    : opts.network === true && !sandbox.slirpPath
      ? "slirp4netns is not installed"
      : null;
  if (missing !== null && !off) {
    if (process.env.CI)
      throw new Error(
        `CI is set but ${missing}: the security suites must run in CI (apt-get install -y bubblewrap slirp4netns)`,
      );
    console.warn(
      `plangate: ${missing}, so this security suite is skipped (apt-get install -y bubblewrap slirp4netns to run it)`,
    );
  }
  return sandbox;
}
