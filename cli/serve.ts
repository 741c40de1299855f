// `plangate serve [--data DIR] [--host HOST] [--port PORT]`: runs the server from the installed package (built when
// it was packed), as `npm start` does in a checkout, keeping its data under the XDG data folder
// (~/.local/share/plangate) unless told otherwise (--data, or PLANGATE_DATA_DIR). It prints the setup link.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { optionsOrUsage } from "./options";
import { selfPath } from "./self";

const USAGE = "usage: plangate serve [--data DIR] [--host HOST] [--port PORT]";
const OPTIONS = { data: { type: "string" }, host: { type: "string" }, port: { type: "string" } } as const;

/** Where an installed Plangate keeps its database and workspaces when not told: the XDG data folder. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : undefined;
  return path.join(base ?? path.join(env.HOME || os.homedir(), ".local", "share"), "plangate");
}

/**
 * The server's environment: paths a person gives are theirs, from where they stand, never the package's folder
 * (the next install replaces it); the data folder defaults to the XDG one. Pure.
 */
export function serveEnvironment(
  given: NodeJS.ProcessEnv,
  cwd: string,
  opts: { data?: string; host?: string; port?: string },
): NodeJS.ProcessEnv {
  const fromHere = (p: string) => path.resolve(cwd, p);
  const list = (v: string) => v.split(path.delimiter).filter(Boolean).map(fromHere).join(path.delimiter);
  const env: NodeJS.ProcessEnv = { ...given };
  env.PLANGATE_DATA_DIR = fromHere(opts.data ?? given.PLANGATE_DATA_DIR ?? defaultDataDir(given));
  if (env.PLANGATE_WORKSPACE_ROOTS) env.PLANGATE_WORKSPACE_ROOTS = list(env.PLANGATE_WORKSPACE_ROOTS);
  if (env.PLANGATE_SANDBOX_READ) env.PLANGATE_SANDBOX_READ = list(env.PLANGATE_SANDBOX_READ);
  const sqlite = /^file:(?!\/)([^?]*)(.*)$/.exec(env.DATABASE_URL ?? "");
  if (sqlite) env.DATABASE_URL = `file:${fromHere(sqlite[1] ?? "")}${sqlite[2] ?? ""}`;
  if (opts.host !== undefined) env.HOST = opts.host;
  if (opts.port !== undefined) env.PORT = opts.port;
  return env;
}

export async function run(args: string[]): Promise<number> {
  const opts = optionsOrUsage(args, OPTIONS, USAGE);
  if (opts === null) return 2;
  // The package: dist/cli/plangate.mjs is two folders below it.
  const root = path.resolve(path.dirname(selfPath()), "..", "..");
  const serve = path.join(root, "scripts", "serve.mjs");
  if (!fs.existsSync(serve)) {
    console.error(
      `plangate: no server beside this CLI (${serve} is missing): serve from an installed package or a checkout`,
    );
    return 1;
  }
  const env = serveEnvironment(process.env, process.cwd(), opts);
  console.log(`plangate: data in ${env.PLANGATE_DATA_DIR}`);
  const server = spawn(process.execPath, [serve, "--packaged"], { cwd: root, stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  return new Promise((resolve) => server.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
