import { agentLabel } from "../../desk/views/desk-view";

/**
 * Pure: what an outside agent can be given with an approval, measured through each agent's own mechanism (its
 * hook or plugin), so the card offers only that and the server refuses the rest instead of promising it.
 * Claude Code's PermissionRequest allow carries the plan (updatedInput) and a mode (setMode), but no message;
 * OpenCode's plugin writes the approved plan into its plan file and lets plan_exit go on, choosing no mode.
 * A rejection reaches both with its feedback and comments (the deny message / the tool's error).
 */
export type AgentReceives = {
  agent: string;
  label: string;
  /** An edited plan (or one with suggestions applied) reaches the agent as its approved plan. */
  editedPlan: boolean;
  /** Notes (feedback, comments, replies) reach it with an approval. */
  notesOnApproval: boolean;
  /** The ways on it can be approved into (empty: it chooses its mode itself). */
  modes: ("default" | "acceptEdits")[];
  /** The card's line, in words. */
  words: string;
};

type Measured = Omit<AgentReceives, "agent" | "label" | "words"> & { words?: string };

const RECEIVES: Record<string, Measured> = {
  "claude-code": { editedPlan: true, notesOnApproval: false, modes: ["default", "acceptEdits"] },
  opencode: { editedPlan: true, notesOnApproval: false, modes: [] },
  // Its AfterTool hook hands the model what Plangate's agent would read (an edit, notes); the plan file keeps the
  // model's text, and Gemini picks the mode: YOLO in a headless run, its own dialog's choice in a terminal.
  gemini: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Gemini CLI receives the approval, then your notes and any edit as context with exit_plan_mode's result (its plan file keeps the text it wrote). It picks its own mode: YOLO in a headless run (every tool call allowed), its dialog's choice in a terminal.",
  },
  // Its Stop hook can only let the turn end (an approval) or send it back with the feedback.
  codex: {
    editedPlan: false,
    notesOnApproval: false,
    modes: [],
    words:
      "Codex receives only that its turn may end: no edit, no notes and no mode reach it with an approval; you go on in Codex. Request changes sends your feedback and comments back into the same turn.",
  },
  // Plangate's extension is pi's plan mode: submit_plan's result carries what Plangate's agent would read.
  pi: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Pi receives the plan as you approve it and your notes as submit_plan's result, and may then edit, write and run commands (each on the desk first when it was connected with --asks).",
  },
  // Its PreToolUse allow carries nothing to the model; its PostToolUse hook's context does (notes, the plan as
  // approved), and the spec file Droid saves keeps the model's text.
  droid: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Factory Droid receives the approval, then your notes and the plan as you approved it as a message after ExitSpecMode's result (the spec file it saves keeps the text it wrote). It leaves spec mode with its own autonomy level.",
  },
  // Its preToolUse allow carries context the model reads (notes, the plan as approved); plan.md keeps its text.
  copilot: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "GitHub Copilot CLI receives the approval with your notes and the plan as you approved it as context (its plan.md keeps the text it wrote). It picks its own mode: autopilot when it was started so, otherwise its own next step.",
  },
  // Its PermissionRequest allow carries nothing and leaves Qwen's own prompt to choose the mode; its PostToolUse
  // hook's context reaches the model (notes, the plan as approved).
  qwen: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Qwen Code receives the approval, then your notes and the plan as you approved it as a message after exit_plan_mode's result. Its own prompt (its terminal dialog, or the editor over ACP) then asks which mode to go on in.",
  },
  // Its plugin lets plan_exit finish, appends what Plangate's agent would read to its result and writes the plan as
  // approved into the plan file; then it answers Kilo's "Ready to implement?" with "Continue here".
  kilo: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Kilo CLI receives the plan as you approve it (in its plan file too) and your notes with plan_exit's result, then goes on implementing in the same session with its code agent and its own permissions.",
  },
  // Plangate's plugin is Cline's plan mode: submit_plan's result carries what Plangate's agent would read.
  cline: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Cline CLI receives the plan as you approve it and your notes as submit_plan's result, and may then edit files and run commands in its current mode.",
  },
  // Plangate's plugin adds submit_plan (Amp has no plan mode): its result carries what Plangate's agent would read,
  // and the project's permission delegate lets changes go on only after it.
  amp: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "Amp receives the plan as you approve it and your notes as submit_plan's result, and may then edit files and run commands in that thread (each on the desk first when it was connected with --asks).",
  },
  // The wait tool's result carries what Plangate's agent would read; the client runs its own modes.
  mcp: {
    editedPlan: true,
    notesOnApproval: true,
    modes: [],
    words:
      "The MCP client receives the plan as you approve it and your notes in the wait tool's result; it picks its own mode.",
  },
};

/** What the session's agent receives with an approval; null for Plangate's own agent, which receives it all. */
export function receivesOf(agent: string, external: boolean): AgentReceives | null {
  if (!external) return null;
  const label = agentLabel(agent, true);
  // An agent not measured yet is promised the least: the plan as it stands, nothing else.
  const r = RECEIVES[agent] ?? { editedPlan: false, notesOnApproval: false, modes: [] };
  const parts = [
    r.editedPlan
      ? "the plan as you approve it (your edits and applied suggestions included)"
      : "the plan as it was sent",
    ...(r.modes.length ? ["the mode you pick"] : []),
  ];
  if (r.words)
    return {
      agent,
      label,
      editedPlan: r.editedPlan,
      notesOnApproval: r.notesOnApproval,
      modes: r.modes,
      words: r.words,
    };
  const words = `${label} receives ${parts.join(" and ")} with an approval${
    r.modes.length ? "" : "; it picks its own mode"
  }. Notes, comments and replies reach it only with Request changes.`;
  return { agent, label, ...r, words };
}
