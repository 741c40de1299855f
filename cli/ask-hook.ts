// How an extension or plugin that runs inside an agent (pi's, Kilo's) asks `plangate hook <agent>`: one JSON
// message on stdin, one JSON answer on the last line of stdout. It holds no token and no client; every failure is
// a thrown error, which both agents take as a refusal.
import { spawn } from "node:child_process";

const MAX_ANSWER = 1024 * 1024;

/** Runs the hook command with one message; its answer, or a thrown error saying why there is none. */
export function askHook<T>(command: string, message: object, signal?: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn("sh", ["-c", command], { stdio: ["pipe", "pipe", "inherit"], signal });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString("utf8");
      if (out.length > MAX_ANSWER) child.kill("SIGKILL");
    });
    child.on("error", (e) => reject(new Error(`Plangate's hook could not be run (${e.message}); not allowed.`)));
    child.on("close", (code) => {
      try {
        resolve(JSON.parse(out.trim().split("\n").at(-1) ?? "") as T);
      } catch {
        reject(new Error(`Plangate's hook gave no answer (exit ${code}); not allowed.`));
      }
    });
    // A hook that ends before reading its input (a missing command) must not take the agent down with a broken pipe.
    child.stdin.on("error", () => undefined);
    child.stdin.end(JSON.stringify(message));
  });
}
