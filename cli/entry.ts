// The bundle's entry (scripts/build-bundles.ts): `plangate <command> …`.
import { main } from "./main";

process.exitCode = await main(process.argv.slice(2));
