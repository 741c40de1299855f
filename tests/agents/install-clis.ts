// Installs the pinned agent CLIs at test time into a cache outside the clone, one folder per CLI and version
// (PLANGATE_AGENT_CLIS, default ~/.cache/plangate/agent-clis/<id>-<version>; never part of the app's
// dependencies): CI's fresh clones reuse them (Codex is 424 MB). Each CLI gets its own npm prefix, so installing
// one never prunes another. Idempotent: when the pinned version is present and answers --version, nothing is
// downloaded.
//
// Callers use cliForSuite(): it returns the binary, or null after saying why the suite is skipped; with CI set
// a missing CLI is an error instead (CI must run these suites).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export const REPO_ROOT = path.resolve(import.meta.dirname, "..", "..");
export const CLI_ROOT = process.env.PLANGATE_AGENT_CLIS || path.join(os.homedir(), ".cache", "plangate", "agent-clis");

export interface CliSpec {
  /** Its folder in the cache is `<id>-<version>`. */
  id: string;
  pkg: string;
  version: string;
  /** Paths (relative to the prefix) to try in order; the first one whose --version names `version` wins. */
  bins: string[];
  /** Leave optional dependencies out (Gemini's native pty and keychain modules need node headers to build). */
  omitOptional?: boolean;
}

export const CLAUDE_CODE: CliSpec = {
  id: "claude-code",
  pkg: "@anthropic-ai/claude-code",
  version: "2.1.328",
  // The postinstall script puts the native binary at bin/claude.exe (the .bin/claude link); when install scripts
  // were not run, the platform package's binary is used directly.
  bins: [
    "node_modules/.bin/claude",
    `node_modules/@anthropic-ai/claude-code-${process.platform}-${process.arch}/claude`,
  ],
};

export const OPENCODE: CliSpec = {
  id: "opencode",
  pkg: "opencode-ai",
  version: "1.18.33",
  bins: ["node_modules/.bin/opencode", `node_modules/opencode-${process.platform}-${process.arch}/bin/opencode`],
};

export const GEMINI_CLI: CliSpec = {
  id: "gemini",
  pkg: "@google/gemini-cli",
  version: "0.61.0",
  bins: ["node_modules/.bin/gemini"],
  omitOptional: true,
};

export const CODEX: CliSpec = {
  id: "codex",
  pkg: "@openai/codex",
  version: "0.171.0",
  bins: ["node_modules/.bin/codex"],
};

export const PI: CliSpec = {
  id: "pi",
  pkg: "@mariozechner/pi-coding-agent",
  version: "0.73.1",
  bins: ["node_modules/.bin/pi"],
};

/**
 * Factory Droid: the platform package itself (a single executable), since the registry here lacks the platform
 * package @factory/cli@0.225.1 names, and its wrapper's install script would download it.
 */
export const DROID: CliSpec = {
  id: "droid",
  pkg: `@factory/cli-${process.platform}-${process.arch}`,
  version: "0.225.2",
  bins: [`node_modules/@factory/cli-${process.platform}-${process.arch}/bin/droid`],
};

export const COPILOT: CliSpec = {
  id: "copilot",
  pkg: "@github/copilot",
  version: "1.0.102",
  bins: [`node_modules/@github/copilot-${process.platform}-${process.arch}/copilot`, "node_modules/.bin/copilot"],
};

export const QWEN: CliSpec = {
  id: "qwen",
  pkg: "@qwen-code/qwen-code",
  version: "0.24.4",
  bins: ["node_modules/.bin/qwen"],
};

/**
 * Kilo CLI: its platform package itself (a Bun-compiled executable), pinned to 7.7.7: the registry here lacks the
 * platform package 7.8.1 names, and the wrapper's install script only links the same executable.
 */
export const KILO: CliSpec = {
  id: "kilo",
  pkg: `@kilocode/cli-${process.platform}-${process.arch}`,
  version: "7.7.7",
  bins: [`node_modules/@kilocode/cli-${process.platform}-${process.arch}/bin/kilo`],
};

/** Cline CLI: the wrapper package, whose optional dependency is the Bun-compiled executable `.bin/cline` links to. */
export const CLINE: CliSpec = {
  id: "cline",
  pkg: "cline",
  version: "3.0.65",
  bins: ["node_modules/.bin/cline", `node_modules/@cline/cli-${process.platform}-${process.arch}/bin/cline`],
};

/**
 * Amp: the wrapper pinned to the newest version whose Linux executable is on the registry (0.0.1790712063, the
 * latest, has none); its optional dependency is the Bun-compiled executable. Its model needs ampcode.com's sign-in,
 * so the suite drives what runs without one: `amp permissions test`, which runs the delegate for real, and Amp's
 * own Bun for the plugin.
 */
export const AMP: CliSpec = {
  id: "amp",
  pkg: "@ampcode/cli",
  version: "0.0.1790142911-g7618fb",
  bins: [`node_modules/@ampcode/cli-${process.platform}-${process.arch}/amp`],
};

export type InstallResult = { bin: string; version: string; fresh: boolean } | { bin: null; reason: string };

async function probe(spec: CliSpec, prefix: string): Promise<string | null> {
  const manifest = path.join(prefix, "node_modules", spec.pkg, "package.json");
  try {
    const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version?: string };
    if (version !== spec.version) return null;
  } catch {
    return null;
  }
  for (const rel of spec.bins) {
    const bin = path.join(prefix, rel);
    if (!fs.existsSync(bin)) continue;
    try {
      const { stdout, stderr } = await run(bin, ["--version"], {
        timeout: 30_000,
        env: { ...process.env, DISABLE_AUTOUPDATER: "1" },
      });
      // pi prints its version on stderr.
      if (`${stdout}${stderr}`.includes(spec.version)) return bin;
    } catch {
      // try the next candidate
    }
  }
  return null;
}

async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const stat = fs.statSync(lockDir, { throwIfNoEntry: false });
      if (!stat) continue; // released meanwhile
      const age = Date.now() - stat.mtimeMs;
      if (age > 10 * 60_000) fs.rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      else await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/** Install `spec` (if needed) and return its binary, or null with the reason it is unavailable. */
export async function installCli(spec: CliSpec): Promise<InstallResult> {
  const prefix = path.join(CLI_ROOT, `${spec.id}-${spec.version}`);
  const present = await probe(spec, prefix);
  if (present) return { bin: present, version: spec.version, fresh: false };
  try {
    fs.mkdirSync(CLI_ROOT, { recursive: true });
    return await withLock(path.join(CLI_ROOT, `${spec.id}.lock`), async () => {
      const again = await probe(spec, prefix); // another process may have installed it meanwhile
      if (again) return { bin: again, version: spec.version, fresh: false };
      fs.mkdirSync(prefix, { recursive: true });
      try {
        await run(
          "npm",
          [
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--loglevel=error",
            "--prefix",
            prefix,
            ...(spec.omitOptional ? ["--omit=optional"] : []),
            `${spec.pkg}@${spec.version}`,
          ],
          {
            cwd: prefix,
            timeout: 5 * 60_000,
            maxBuffer: 16 * 1024 * 1024,
          },
        );
      } catch (err) {
        const e = err as { stderr?: string; message: string };
        // npm's first lines carry the cause ("npm error code ECONNREFUSED", "… request to … failed"); drop stacks.
        const lines = (e.stderr || e.message).split("\n").map((l) => l.replace(/^npm error\s*/, "").trim());
        const detail = lines
          .filter((l) => l && !l.startsWith("at ") && !/^(syscall|errno) /.test(l))
          .slice(0, 3)
          .join("; ");
        return { bin: null, reason: `npm install ${spec.pkg}@${spec.version} failed: ${detail}` };
      }
      const bin = await probe(spec, prefix);
      if (bin) return { bin, version: spec.version, fresh: true };
      return {
        bin: null,
        reason: `${spec.pkg}@${spec.version} installed into ${prefix} but no binary answered --version with ${spec.version} (unsupported platform ${process.platform}-${process.arch}?)`,
      };
    });
  } catch (err) {
    return { bin: null, reason: `could not install ${spec.pkg}@${spec.version}: ${(err as Error).message}` };
  }
}

export const installClaudeCode = () => installCli(CLAUDE_CODE);
export const installOpencode = () => installCli(OPENCODE);

/**
 * For a test file's top level: `const claude = await cliForSuite(CLAUDE_CODE); describe.skipIf(!claude)(…)`.
 * Returns the binary; or, when it cannot be installed, prints why and returns null, except with CI set,
 * where it throws (the suite must run in CI).
 */
export async function cliForSuite(spec: CliSpec): Promise<string | null> {
  const result = await installCli(spec);
  if (result.bin !== null) return result.bin;
  const message = `${spec.pkg}@${spec.version} is not available, so its real-CLI tests are skipped: ${result.reason}`;
  if (process.env.CI) throw new Error(`CI is set: ${message}`);
  console.warn(`plangate: ${message}`);
  return null;
}
