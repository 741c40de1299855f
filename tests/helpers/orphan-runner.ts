// Starts one command through runCommand and kills its own process (kill -9) `delayMs` after the spawn: what a
// server that dies mid-step leaves behind. Usage: orphan-runner <workspace> <command> <delayMs> <sandbox:0|1>
import { runCommand } from "../../lib/sandbox/run-command";
import { detectSandbox } from "../../lib/sandbox/detect-sandbox";

const [workspace, command, delay, sandboxed] = process.argv.slice(2);
if (!workspace || !command || delay === undefined)
  throw new Error("usage: orphan-runner <workspace> <command> <delayMs> <sandbox>");
const detected = detectSandbox();
const sandbox = sandboxed === "1" ? detected : { ...detected, available: false };
void runCommand({
  command,
  cwd: workspace,
  workspace,
  sandbox,
  profile: { write: true, network: false },
  timeoutMs: 30_000,
});
setTimeout(() => process.kill(process.pid, "SIGKILL"), Number(delay));
