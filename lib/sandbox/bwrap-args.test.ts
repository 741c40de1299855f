import { describe, expect, it } from "vitest";
import { bwrapArgs, SANDBOX_HOME } from "./bwrap-args";

/** The option pairs/triples as strings, so assertions read like the command line. */
function joined(args: string[]): string {
  return args.join(" ");
}

describe("bwrapArgs", () => {
  const ro = bwrapArgs({ workspace: "/work/ws", readOnly: true, cwd: "/work/ws/src" });
  const rw = bwrapArgs({ workspace: "/work/ws", readOnly: false, cwd: "/work/ws" });

  it.each([
    ["--ro-bind / /"],
    ["--dev /dev"],
    ["--proc /proc"],
    ["--tmpfs /tmp"],
    ["--tmpfs /run"],
    ["--ro-bind /work/ws /work/ws"],
    ["--unshare-net"],
    ["--unshare-ipc"],
    ["--unshare-pid"],
    ["--die-with-parent"],
    ["--new-session"],
    ["--cap-drop ALL"],
    [`--setenv HOME ${SANDBOX_HOME}`],
    ["--chdir /work/ws/src"],
  ])("read-only has %s", (option) => {
    expect(joined(ro)).toContain(option);
  });

  it.each([
    ["--ro-bind / /"],
    ["--tmpfs /tmp"],
    ["--bind /work/ws /work/ws"],
    ["--unshare-pid"],
    ["--die-with-parent"],
    ["--new-session"],
    ["--cap-drop ALL"],
    [`--setenv HOME ${SANDBOX_HOME}`],
    ["--chdir /work/ws"],
  ])("writable has %s", (option) => {
    expect(joined(rw)).toContain(option);
  });

  it.each([["--unshare-net"], ["--tmpfs /run"], ["--ro-bind /work/ws"]])("writable shares the network and /run: no %s", (option) => {
    expect(joined(rw)).not.toContain(option);
  });

  it("never makes anything but the workspace writable", () => {
    const binds = rw.flatMap((arg, i) => (arg === "--bind" ? [rw[i + 1]] : []));
    expect(binds).toEqual(["/work/ws"]);
    expect(ro).not.toContain("--bind");
  });

  it("binds the workspace after the tmpfs mounts so a workspace under /tmp stays visible", () => {
    const args = bwrapArgs({ workspace: "/tmp/plangate-x", readOnly: true, cwd: "/tmp/plangate-x" });
    const tmpfs = args.lastIndexOf("--tmpfs");
    const bind = args.indexOf("/tmp/plangate-x") - 1;
    expect(args[bind]).toBe("--ro-bind");
    expect(bind).toBeGreaterThan(tmpfs);
    expect(args.indexOf("--ro-bind")).toBe(0);
  });

  it("puts HOME's folder inside the private /tmp", () => {
    expect(SANDBOX_HOME.startsWith("/tmp/")).toBe(true);
    expect(joined(ro)).toContain(`--dir ${SANDBOX_HOME}`);
  });
});
