import "server-only";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { AppError } from "../errors";

/** The bundled CLI as `npm start` built it (scripts/build-bundles.ts), relative to the folder the server runs in. */
const FILE = path.join("dist", "cli", "plangate.mjs");

let cached: { mtimeMs: number; body: Buffer; etag: string } | null = null;

/**
 * The plangate file another machine fetches (`curl …/cli/plangate.mjs`): read once per build and kept with its
 * hash, which is its ETag. Not built yet: a 404 that says how.
 */
export function readCliFile(): { body: Buffer; etag: string } {
  const file = path.resolve(process.cwd(), FILE);
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile())
    throw new AppError("not_found", "The CLI file is not built on this server: run npm install or npm start there.");
  if (cached?.mtimeMs !== stat.mtimeMs) {
    const body = fs.readFileSync(file);
    cached = { mtimeMs: stat.mtimeMs, body, etag: `"${createHash("sha256").update(body).digest("hex").slice(0, 32)}"` };
  }
  return cached;
}
