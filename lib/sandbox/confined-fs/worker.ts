// The file worker: a small process that does the agent's file tools' I/O, started by the server (client.ts) under
// bubblewrap with only the call's roots in view, or unconfined where there is no sandbox. It reads one JSON request
// per line on stdin and writes one answer per line on stdout, in order; it ends when stdin closes.
import readline from "node:readline";
import { Beneath, WorkerError } from "./beneath";
import type { Answer, Failure, Request, WorkerConfig } from "./protocol";
import { readLines, readText, statPlace } from "./read-ops";
import { listTree } from "./walk-ops";
import { removeFile, writeText } from "./write-ops";

async function run(b: Beneath, r: Request): Promise<unknown> {
  switch (r.op) {
    case "stat":
      return statPlace(b, r.path);
    case "readText":
      return readText(b, r.path, r.maxBytes);
    case "readLines":
      return readLines(b, r.path, r.first, r.limit);
    case "writeText":
      return writeText(b, r.path, r.content, r.atomic === true, r.before);
    case "remove":
      return removeFile(b, r.path);
    case "list":
      return listTree(b, r.path, r.max);
    case "glob":
      return (await import("./search-ops")).globFiles(b, r.path, r.pattern, r.max);
    case "grep":
      return (await import("./search-ops")).grepFiles(b, r.path, r.pattern, r.include, r.max, r.maxFileBytes);
  }
}

function failure(error: unknown): Failure {
  if (error instanceof WorkerError) return { code: error.code, message: error.message };
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return {
    code: typeof code === "string" ? code : "EIO",
    message: error instanceof Error ? error.message : String(error),
  };
}

function main(): void {
  // The workspace's files keep the modes a person's own tools would give them, whatever the server's umask.
  process.umask(0o022);
  const config = JSON.parse(process.argv[2] ?? "{}") as WorkerConfig;
  const b = new Beneath(config);
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  // Answers carry their request's id: a search that waits for RE2 to load may answer after a later read.
  lines.on("line", async (line) => {
    let id = -1;
    let answer: Answer;
    try {
      const { id: given, ...request } = JSON.parse(line) as Request & { id: number };
      id = given;
      answer = { id, ok: true, result: await run(b, request as Request) };
    } catch (error) {
      answer = { id, ok: false, error: failure(error) };
    }
    process.stdout.write(`${JSON.stringify(answer)}\n`);
  });
  lines.on("close", () => process.exit(0));
}

main();
