// The plangate file this process runs from: what `connect` writes into an agent's hook command. In the bundle
// (dist/cli/plangate.mjs, or a copy fetched from a server to ~/.local/bin/plangate) that is the file itself; run
// from the TypeScript sources (tests, tsx), the checkout's bundle.
import path from "node:path";
import { fileURLToPath } from "node:url";

export function selfPath(): string {
  const here = fileURLToPath(import.meta.url);
  if (!here.endsWith(".ts")) return here;
  return path.resolve(path.dirname(here), "..", "dist", "cli", "plangate.mjs");
}
