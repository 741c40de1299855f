import { spawn, type ChildProcess } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { ToolError } from "../session/log/tool-types";

const READY_TIMEOUT_MS = 10_000;

/** The child's pid from bubblewrap's --info-fd JSON, once it is complete. */
function readChildPid(info: Readable): Promise<number> {
  return new Promise((resolve, reject) => {
    let text = "";
    const done = (fn: () => void) => {
      info.removeAllListeners("data");
      fn();
    };
    info.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
      try {
        const pid = (JSON.parse(text) as { "child-pid"?: unknown })["child-pid"];
        if (typeof pid === "number") done(() => resolve(pid));
      } catch {
        // Not all of it yet.
      }
    });
    info.once("end", () => done(() => reject(new ToolError("The sandbox did not start."))));
  });
}

/**
 * Gives a sandbox that is waiting on its --block-fd a network of its own: slirp4netns puts a tap device in
 * the sandbox's network namespace with user-mode NAT to the outside, and `--disable-host-loopback` keeps
 * the host's 127.0.0.1 (where Plangate and local databases listen) unreachable from it. Resolves with the
 * slirp4netns process (the caller ends it when the command ends) after releasing the sandbox.
 */
export async function attachNetwork(
  slirpPath: string,
  sandbox: ChildProcess,
  info: Readable,
  block: Writable,
): Promise<ChildProcess> {
  // Node's stdio "pipes" are socket pairs: the other end closing shows up as ECONNRESET, which is no error here.
  const ignore = () => undefined;
  info.on("error", ignore);
  block.on("error", ignore);
  const pid = await readChildPid(info);
  // --exit-fd: slirp4netns ends when this pipe closes, even if the server dies without cleaning up.
  const slirp = spawn(
    slirpPath,
    ["--configure", "--mtu=65520", "--disable-host-loopback", "--ready-fd", "3", "--exit-fd", "4", String(pid), "tap0"],
    {
      stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"],
    },
  );
  let stderr = "";
  slirp.stderr?.on("data", (d: Buffer) => (stderr += d.toString("utf8")));
  for (const stream of slirp.stdio) stream?.on("error", ignore);
  const ready = slirp.stdio[3] as Readable;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new ToolError("The sandbox's network did not come up in time.")),
      READY_TIMEOUT_MS,
    );
    ready.once("data", () => {
      clearTimeout(timer);
      resolve();
    });
    slirp.once("exit", (code) => {
      clearTimeout(timer);
      reject(
        new ToolError(
          `The sandbox's network could not be set up (slirp4netns exited ${code}): ${stderr.trim().slice(-300)}`,
        ),
      );
    });
    slirp.once("error", (err) => {
      clearTimeout(timer);
      reject(new ToolError(`slirp4netns could not start: ${err.message}`));
    });
  }).catch((error: unknown) => {
    slirp.kill("SIGKILL");
    throw error;
  });
  slirp.removeAllListeners("exit");
  sandbox.once("exit", () => endNetwork(slirp));
  block.end("go");
  return slirp;
}

/**
 * Ends a sandbox's network a moment after its command: what the command wrote last (a fire-and-forget
 * `echo > /dev/tcp/…`, a closing request) may still sit in the namespace's TCP stack, which slirp4netns keeps
 * alive and forwards; killing it at once dropped those bytes on a busy machine.
 */
export function endNetwork(slirp: ChildProcess, graceMs = 1_000): void {
  if (slirp.exitCode !== null || slirp.signalCode !== null) return;
  setTimeout(() => slirp.kill("SIGTERM"), graceMs).unref();
}
