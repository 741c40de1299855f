import { describe, expect, it } from "vitest";
import { serveEnvironment } from "../../cli/serve";

// `plangate serve` runs the server with the package as its folder: every path a person gives must be resolved
// from where they stand first, or the data would land inside the package (replaced by the next install).
describe("plangate serve's environment", () => {
  const home = { HOME: "/home/pat", NODE_ENV: "test" as const };
  it.each([
    ["nothing given: the XDG data folder", {}, {}, { PLANGATE_DATA_DIR: "/home/pat/.local/share/plangate" }],
    ["XDG_DATA_HOME", { XDG_DATA_HOME: "/data" }, {}, { PLANGATE_DATA_DIR: "/data/plangate" }],
    [
      "a relative XDG_DATA_HOME is ignored, as the spec says",
      { XDG_DATA_HOME: "rel" },
      {},
      { PLANGATE_DATA_DIR: "/home/pat/.local/share/plangate" },
    ],
    [
      "--data beats PLANGATE_DATA_DIR, from here",
      { PLANGATE_DATA_DIR: "/elsewhere" },
      { data: "mine" },
      { PLANGATE_DATA_DIR: "/work/mine" },
    ],
    ["a relative PLANGATE_DATA_DIR, from here", { PLANGATE_DATA_DIR: "./pg" }, {}, { PLANGATE_DATA_DIR: "/work/pg" }],
    [
      "workspace roots: relative ones from here, empty entries dropped (never the folder serve started in)",
      { PLANGATE_WORKSPACE_ROOTS: "/srv/ws::rel:" },
      {},
      { PLANGATE_WORKSPACE_ROOTS: "/srv/ws:/work/rel" },
    ],
    [
      "a relative SQLite file, from here",
      { DATABASE_URL: "file:./db/p.db?x=1" },
      {},
      { DATABASE_URL: "file:/work/db/p.db?x=1" },
    ],
    ["an absolute SQLite file as it is", { DATABASE_URL: "file:/var/p.db" }, {}, { DATABASE_URL: "file:/var/p.db" }],
    ["PostgreSQL as it is", { DATABASE_URL: "postgresql://h/db" }, {}, { DATABASE_URL: "postgresql://h/db" }],
    [
      "sandbox reads from here",
      { PLANGATE_SANDBOX_READ: "/opt:tools" },
      {},
      { PLANGATE_SANDBOX_READ: "/opt:/work/tools" },
    ],
    ["--host and --port", {}, { host: "0.0.0.0", port: "4000" }, { HOST: "0.0.0.0", PORT: "4000" }],
  ])("%s", (_, given, opts, want) => {
    expect(serveEnvironment({ ...home, ...given }, "/work", opts)).toMatchObject(want);
  });
});
