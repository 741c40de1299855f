import { detectSandbox } from "@/lib/sandbox/detect-sandbox";

/** Shown when bubblewrap cannot run: plan mode then rests on the command allowlist alone. */
export function SandboxBanner() {
  if (detectSandbox().available) return null;
  return (
    <div
      role="alert"
      data-testid="sandbox-banner"
      className="mb-4 rounded border border-rose-300 bg-rose-50 px-3 py-2 text-sm text-rose-950 dark:border-rose-800 dark:bg-rose-950 dark:text-rose-100"
    >
      <strong>The OS sandbox is off.</strong> bubblewrap is not available (or PLANGATE_SANDBOX=off), so shell commands
      are not isolated by the operating system; in plan mode only commands on the read-only allowlist may run.
    </div>
  );
}
