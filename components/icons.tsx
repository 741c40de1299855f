/**
 * Small inline SVG icons. Glyphs such as ⏸ ↺ ✓ ✕ depend on the reader's fonts (Debian's Chromium has none for some
 * and shows an empty box); these draw the same with the text's colour, at the text's size.
 */
export type IconName =
  | "running"
  | "waiting"
  | "ok"
  | "returned"
  | "error"
  | "replay"
  | "down"
  | "close"
  | "warn"
  | "bell";

const PATHS: Record<IconName, string> = {
  running: "M4 10h.01M10 10h.01M16 10h.01",
  waiting: "M7 5v10M13 5v10",
  ok: "M4 10.5l4 4 8-9",
  returned: "M8 5L4 9l4 4M4 9h8a4 4 0 0 1 0 8h-2",
  error: "M5 5l10 10M15 5L5 15",
  replay: "M4 4v5h5M4.6 13a6 6 0 1 0 1.2-6.4L4 9",
  down: "M5 8l5 5 5-5",
  close: "M5 5l10 10M15 5L5 15",
  warn: "M10 3l8 14H2L10 3zM10 8v4M10 14.5v.01",
  bell: "M5 14V9a5 5 0 0 1 10 0v5l1.5 2h-13L5 14zM8.5 17.5a1.5 1.5 0 0 0 3 0",
};

/** An icon; decorative (hidden from screen readers) unless given a label. */
export function Icon({ name, label, className = "" }: { name: IconName; label?: string; className?: string }) {
  const common = {
    viewBox: "0 0 20 20",
    width: "1em",
    height: "1em",
    fill: "none",
    stroke: "currentColor",
    strokeWidth: name === "running" ? 3 : 2,
    strokeLinecap: "round" as const,
    strokeLinejoin: "round" as const,
    "data-icon": name,
    className: `inline-block shrink-0 align-[-0.125em] ${className}`,
  };
  return label ? (
    <svg {...common} role="img" aria-label={label}>
      <path d={PATHS[name]} />
    </svg>
  ) : (
    <svg {...common} aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
