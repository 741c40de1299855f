import { describe, expect, it } from "vitest";
import { fileInOutsideFolder, outsideFolder } from "./outside-folder";

describe("an outside agent's folder, a label", () => {
  it.each<[string, string | null]>([
    ["/home/ada/shop", "/home/ada/shop"],
    ["/home/ada/shop/", "/home/ada/shop"],
    ["/home/ada/x/../shop/./", "/home/ada/shop"],
    ["/../../etc", "/etc"],
    ["/", "/"],
    ["C:\\work\\shop", "C:/work/shop"],
    ["relative/shop", null],
    ["", null],
    ["/home/ada/sh\u0000op", null],
    ["/home/ada/\nshop", null],
  ])("%j", (cwd, label) => {
    if (label === null) expect(() => outsideFolder(cwd)).toThrow(/cwd:/);
    else expect(outsideFolder(cwd)).toBe(label);
  });

  it.each<[string, string, string | null]>([
    ["/home/ada/shop", "src/a.ts", "src/a.ts"],
    ["/home/ada/shop", "/home/ada/shop/src/a.ts", "src/a.ts"],
    ["/home/ada/shop", "../other/a.ts", null],
    ["/home/ada/shop", "/home/ada/shopping/a.ts", null],
    ["/home/ada/shop", "src/../../x", null],
    ["/home/ada/shop", ".", null],
    ["C:/work/shop", "src\\a.ts", "src/a.ts"],
    ["C:/work/shop", "D:\\work\\shop\\a.ts", null],
  ])("%s: %s", (folder, file, rel) => expect(fileInOutsideFolder(folder, file)).toBe(rel));
});
