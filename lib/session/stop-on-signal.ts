import { closeOpenStreams } from "./live-stream";

// After SIGTERM (a service manager's stop) or SIGINT the server exits within this, whatever is still open. Next's
// own handler closes the listening socket and waits for every connection to end; a browser tab's live stream
// (SSE) never ends by itself, so the streams are ended here and the wait is bounded.
const GRACE_MS = 3_000;

const flag = globalThis as unknown as { plangateStopOnSignal?: boolean };

/** Once per process (the instrumentation hook): on SIGTERM or SIGINT, end the live streams and exit in time. */
export function stopOnSignal(): void {
  if (flag.plangateStopOnSignal) return;
  flag.plangateStopOnSignal = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    process.once(signal, () => {
      closeOpenStreams();
      setTimeout(() => process.exit(signal === "SIGTERM" ? 143 : 130), GRACE_MS).unref();
    });
}
