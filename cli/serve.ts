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
  return path.join(base ?? path.join(os.homedir(), ".local", "share"), "plangate");
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
  // Paths a person gives are theirs, from where they stand; the server resolves what is left against its package.
  const fromHere = (p: string) => path.resolve(process.cwd(), p);
  const env: NodeJS.ProcessEnv = { ...process.env };
  env.PLANGATE_DATA_DIR = fromHere(opts.data ?? process.env.PLANGATE_DATA_DIR ?? defaultDataDir());
  if (env.PLANGATE_WORKSPACE_ROOTS)
    env.PLANGATE_WORKSPACE_ROOTS = env.PLANGATE_WORKSPACE_ROOTS.split(path.delimiter)
      .map(fromHere)
      .join(path.delimiter);
  if (opts.host !== undefined) env.HOST = opts.host;
  if (opts.port !== undefined) env.PORT = opts.port;
  console.log(`plangate: data in ${env.PLANGATE_DATA_DIR}`);
  const server = spawn(process.execPath, [serve, "--packaged"], { cwd: root, stdio: "inherit", env });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  return new Promise((resolve) => server.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))));
}
