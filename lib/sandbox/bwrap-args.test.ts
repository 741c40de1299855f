import { describe, expect, it } from "vitest";
import { bwrapArgs, SANDBOX_HOME, type BwrapOptions } from "./bwrap-args";

/** The option pairs/triples as strings, so assertions read like the command line. */
const joined = (args: string[]) => args.join(" ");

const base: BwrapOptions = {
  workspace: "/work/ws",
  cwd: "/work/ws/src",
  profile: { write: false, network: false },
  system: [
    { path: "/usr", symlink: null },
    { path: "/bin", symlink: "usr/bin" },
  ],
  etc: ["passwd", "ssl", "resolv.conf"],
};
const ro = bwrapArgs(base);
const rw = bwrapArgs({
  ...base,
  cwd: "/work/ws",
  profile: { write: true, network: false },
  protect: ["/work/ws/.plangate", "/work/ws/.git/config"],
});
const net = bwrapArgs({
  ...base,
  profile: { write: true, network: true },
  resolvConf: "/tmp/p/resolv.conf",
  infoFd: 3,
  blockFd: 4,
});

describe("bwrapArgs", () => {
  it.each([
    ["--ro-bind /usr /usr"],
    ["--symlink usr/bin /bin"],
    ["--ro-bind-try /etc/passwd /etc/passwd"],
    ["--ro-bind-try /etc/ssl /etc/ssl"],
    ["--dev /dev"],
    ["--proc /proc"],
    ["--tmpfs /tmp"],
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

  it("shows no host folder but the system's, the chosen /etc entries and the workspace", () => {
    const sources = ro.flatMap((arg, i) =>
      arg === "--ro-bind" || arg === "--ro-bind-try" || arg === "--bind" ? [ro[i + 1]] : [],
    );
    expect(sources).toEqual(["/usr", "/etc/passwd", "/etc/ssl", "/etc/resolv.conf", "/work/ws"]);
    expect(joined(ro)).not.toMatch(/--ro-bind \/ \//);
    // The synthetic root (/etc, the folders above the workspace) is read-only as well.
    expect(joined(ro)).toContain("--remount-ro /");
  });

  it("writable binds only the workspace read-write, and the protected control files read-only after it", () => {
    const binds = rw.flatMap((arg, i) => (arg === "--bind" ? [rw[i + 1]] : []));
    expect(binds).toEqual(["/work/ws"]);
    const ws = rw.indexOf("--bind");
    const plangate = rw.indexOf("/work/ws/.plangate");
    expect(rw[plangate - 1]).toBe("--ro-bind");
    expect(plangate).toBeGreaterThan(ws);
    expect(joined(rw)).toContain("--ro-bind /work/ws/.git/config /work/ws/.git/config");
  });

  it("a read-only command gets no protected mounts (everything is read-only already)", () => {
    expect(bwrapArgs({ ...base, protect: ["/work/ws/.plangate"] })).not.toContain("/work/ws/.plangate");
  });

  it("never shares the host's network, even when the network is allowed: it is attached through the info and block fds", () => {
    for (const args of [ro, rw, net]) expect(args).toContain("--unshare-net");
    expect(joined(net)).toContain("--info-fd 3");
    expect(joined(net)).toContain("--block-fd 4");
    expect(joined(net)).toContain("--ro-bind /tmp/p/resolv.conf /etc/resolv.conf");
    expect(joined(net)).not.toContain("--ro-bind-try /etc/resolv.conf");
  });

  it("binds the workspace after the tmpfs mounts so a workspace under /tmp stays visible", () => {
    const args = bwrapArgs({ ...base, workspace: "/tmp/plangate-x", cwd: "/tmp/plangate-x" });
    const tmpfs = args.lastIndexOf("--tmpfs");
    const bind = args.indexOf("/tmp/plangate-x") - 1;
    expect(args[bind]).toBe("--ro-bind");
    expect(bind).toBeGreaterThan(tmpfs);
  });

  it("pins .git before its read-only parts, covers missing control folders after them, and only when the workspace is writable", () => {
    const guard = {
      protect: ["/work/ws/.git/config"],
      pin: ["/work/ws/.git"],
      cover: { empty: "/run/empty", paths: ["/work/ws/.claude"] },
    };
    const args = bwrapArgs({ ...base, profile: { write: true, network: false }, ...guard });
    const at = (needle: string) => joined(args).indexOf(needle);
    expect(at("--bind /work/ws /work/ws")).toBeLessThan(at("--bind /work/ws/.git /work/ws/.git"));
    expect(at("--bind /work/ws/.git /work/ws/.git")).toBeLessThan(
      at("--ro-bind /work/ws/.git/config /work/ws/.git/config"),
    );
    expect(at("--ro-bind /work/ws/.git/config")).toBeLessThan(at("--ro-bind /run/empty /work/ws/.claude"));
    const readOnly = joined(bwrapArgs({ ...base, ...guard }));
    expect(readOnly).not.toContain("/work/ws/.claude");
    expect(readOnly).not.toContain("--bind /work/ws/.git");
  });

  it("hides the server's files last, whatever showed them; a folder holding the workspace before the workspace is bound into it", () => {
    const hide = [
      { path: "/srv", dir: true, beforeWorkspace: true },
      { path: "/opt/plangate/.env", dir: false, beforeWorkspace: false },
      { path: "/work/ws/data", dir: true, beforeWorkspace: false },
    ];
    const args = bwrapArgs({
      ...base,
      workspace: "/srv/ws",
      cwd: "/srv/ws",
      extraRead: ["/opt/plangate"],
      hide,
      emptyFile: "/run/empty-file",
      profile: { write: true, network: false },
      protect: ["/srv/ws/.git/config"],
    });
    const at = (needle: string) => joined(args).indexOf(needle);
    expect(at("--ro-bind-try /opt/plangate /opt/plangate")).toBeLessThan(at("--tmpfs /srv"));
    expect(at("--tmpfs /srv")).toBeLessThan(at("--bind /srv/ws /srv/ws"));
    expect(at("--ro-bind /srv/ws/.git/config")).toBeLessThan(at("--ro-bind /run/empty-file /opt/plangate/.env"));
    expect(at("--tmpfs /work/ws/data")).toBeGreaterThan(at("--bind /srv/ws /srv/ws"));
    expect(joined(args)).toContain("--remount-ro /srv");
    expect(joined(args)).toContain("--remount-ro /work/ws/data");
  });

  it("puts HOME's folder inside the private /tmp", () => {
    expect(SANDBOX_HOME.startsWith("/tmp/")).toBe(true);
    expect(joined(ro)).toContain(`--dir ${SANDBOX_HOME}`);
  });
});
