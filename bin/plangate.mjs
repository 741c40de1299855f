#!/usr/bin/env node
// `plangate <command>`: the command-line side of Plangate (connecting coding agents, their hooks, importing
// their permission settings). The commands are TypeScript in cli/, run through tsx (a dependency).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
