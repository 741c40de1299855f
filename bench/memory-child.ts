// Run by turn-bench in a fresh process (node --expose-gc): prints the memory figures as one JSON line.
import { memoryRun } from "./turn-bench";

if (typeof (globalThis as { gc?: unknown }).gc !== "function") throw new Error("run with --expose-gc");
console.log(JSON.stringify(await memoryRun()));
process.exit(0);
