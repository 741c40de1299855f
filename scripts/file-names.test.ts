import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// Issue 44: one name per thing. Two files under lib/ with the same name (lib/team/mailbox.ts and
// lib/db/teams/mailbox.ts) made a reader ask which one they were in; the data layer's files are named for the rows
// they read and write (mailbox-rows.ts), the use-cases above them for what they do.
const root = path.resolve(import.meta.dirname, "..");

/** Names two files may share, and why. */
const SHARED: Record<string, string> = {
  // A tool (lib/tools, named as the model calls it) and the use-case it runs (lib/agent, lib/team).
  "send-message.ts": "the send_message tool and a person's message into a session",
  "spawn-teammate.ts": "the spawn_teammate tool and the team's use-case",
  // Each folder's own types.
  "types.ts": "lib/permission's rule types and lib/tools' tool types",
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name.startsWith("generated") ? [] : sources(full);
    return /\.tsx?$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [full] : [];
  });
}

describe("file names under lib/", () => {
  it("are each used once, but for the pairs named here", () => {
    const byName = new Map<string, string[]>();
    for (const file of sources(path.join(root, "lib"))) {
      const name = path.basename(file);
      byName.set(name, [...(byName.get(name) ?? []), path.relative(root, file)]);
    }
    const repeated = Object.fromEntries([...byName].filter(([name, files]) => files.length > 1 && !(name in SHARED)));
    expect(repeated).toEqual({});
    // Each allowed pair still exists: a name that stopped repeating leaves this list.
    for (const name of Object.keys(SHARED)) expect(byName.get(name)?.length, name).toBe(2);
  });
});
