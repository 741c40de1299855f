import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sandboxForSuite } from "../helpers/sandbox";
import { call, results, settle, startScripted, testApi, type Api } from "../helpers/api";
import { driveAnswering, listen, treeHash, type Listener } from "../helpers/boundary";

/*
 * The generated suite: allowlisted commands composed with every way a shell can write, reach the network or
 * run something else, sent through the public API by the scripted model, in plan mode and in default mode
 * with nothing approved. Whatever the classifier says, nothing may reach the listener and neither the
 * workspace nor a folder outside it may change.
 */
const sandbox = sandboxForSuite();

let api: Api;
let listener: Listener;
let outside: string;

const READERS = [
  "echo hi",
  "cat README.md",
  "ls -la",
  "printf 'x\\n'",
  "grep -n a README.md",
  "git status",
  "head -1 README.md",
];

function sinks(port: number): string[] {
  const tcp = `/dev/tcp/127.0.0.1/${port}`;
  return [
    "> out.txt",
    ">> README.md",
    `1<${tcp}`,
    `2<${tcp}`,
    `> ${tcp}`,
    `&> ${tcp}`,
    `0<${tcp}`,
    `3<>${tcp}`,
    "<> README.md",
    "| tee out.txt",
    "| tee ../outside/x.txt",
    "> ../outside/secret.txt",
    "&& touch made.txt",
    "; rm -f README.md",
    "$(touch sub.txt)",
    "`touch tick.txt`",
    "> >(tee proc.txt)",
    "< <(touch procin.txt)",
    '<<< "$(touch here.txt)"',
    "<<EOF > heredoc.txt\nbody\nEOF",
    "| env X=1 touch env.txt",
    "| timeout 5 touch timeout.txt",
    "| nice touch nice.txt",
    "| xargs touch",
    "| bash -c 'cat > bash.txt'",
    "| sh -c 'echo x > sh.txt'",
    "&& find . -maxdepth 0 -exec touch found.txt ';'",
    "&& git -c core.pager='touch pager.txt' log -1",
    `&& exec 3<>${tcp}`,
    "&& cp README.md ../outside/copy.txt",
  ];
}

const compositions = (port: number) => READERS.flatMap((r) => sinks(port).map((s) => `${r} ${s}`));

beforeAll(async () => {
  listener = await listen();
  api = testApi({ files: { "README.md": "# Demo\nalpha\n", "src/a.ts": "export const a = 1;\n" } });
  outside = path.join(path.dirname(api.workspace), "outside");
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, "secret.txt"), "outside secret\n");
});

afterAll(async () => {
  await listener.close();
  await api.close();
});

describe.skipIf(!sandbox.available)(
  "composed commands change nothing and reach nothing unless a person approves them",
  () => {
    it("covers hundreds of compositions", () => {
      expect(compositions(1).length).toBeGreaterThanOrEqual(200);
    });

    it.each(["plan", "default"] as const)(
      "in %s mode with no approvals",
      async (mode) => {
        const commands = compositions(listener.port);
        // Twenty calls per model step keeps the turn well under the step limit.
        const steps = Array.from({ length: Math.ceil(commands.length / 20) }, (_, i) => ({
          toolCalls: commands.slice(i * 20, i * 20 + 20).map((command) => call("bash", { command }).toolCalls![0]!),
        }));
        const id = await startScripted(api, [...steps, { text: "done" }], { mode });
        // Taken once the session exists: entering plan mode creates the (empty) plans folder itself.
        const ws = treeHash(api.workspace);
        const out = treeHash(outside);
        await api.call("POST", `/api/sessions/${id}/messages`, { text: "go" });
        // Nothing is approved: every ask is rejected, and the turn goes on to the next command.
        const asks = await driveAnswering(
          api,
          (s) => settle(api, s, 60_000),
          id,
          () => ({ reply: "reject" }),
        );
        const { events } = await settle(api, id);
        const ran = results(events).filter((r) => r.tool === "bash" && r.ok);
        expect(results(events).filter((r) => r.tool === "bash")).toHaveLength(commands.length);
        // The effects first: nothing reached the listener, nothing changed inside or outside the workspace.
        expect(listener.received()).toBe("");
        expect(listener.connections()).toBe(0);
        expect(treeHash(api.workspace)).toBe(ws);
        expect(treeHash(outside)).toBe(out);
        // Whatever ran without a person's yes ran in the read-only sandbox.
        for (const r of ran)
          expect((r.metadata as { profile: { write: boolean; network: boolean } }).profile).toEqual({
            write: false,
            network: false,
          });
        if (mode === "plan") expect(asks).toHaveLength(0);
        else expect(asks.length).toBeGreaterThan(commands.length / 2);
      },
      240_000,
    );
  },
);
