/*
 * The control files by name (see control-paths.ts for the principle). Each family below is one kind of program that
 * reads the file by itself; a name joins when that program acts on it without being asked to (a shell or a tool
 * manager on `cd`, an interpreter or a debugger on start, git or a hook manager on commit, a build tool's wrapper
 * before the build, an editor or a dev environment on open, CI on push) or when a later agent takes it as its
 * instructions or settings. Names are compared without case, at any depth.
 */

/**
 * Folders at the top that a command is not covered from while it runs (each cover costs a writable command a mount
 * point made and removed on the host): other agents' rules and settings, CI, editors and build tools that act only
 * when the person starts them. Created by a command, they are found by the walk after it, like any deeper entry.
 */
export const WATCHED_DIRS: readonly string[] = [
  // Agents' rules, modes and settings.
  ".clinerules",
  ".roo",
  ".windsurf",
  ".kiro",
  ".amazonq",
  ".continue",
  ".junie",
  ".trae",
  ".augment",
  ".tabnine",
  ".sourcegraph",
  ".cody",
  ".zencoder",
  ".qodo",
  // CI: runs on the next push, with the repository's secrets.
  ".circleci",
  ".buildkite",
  ".woodpecker",
  ".semaphore",
  ".tekton",
  // Editors and dev environments that run tasks or hooks when the folder opens.
  ".theia",
  ".nova",
  ".idx",
  ".codesandbox",
  ".flox",
  // Maven: `extensions.xml` (code loaded into every run), `jvm.config`, `maven.config`, the wrapper and its jar.
  ".mvn",
  // Other version control systems' folders (hooks, commands their settings name).
  ".bzr",
  "_darcs",
  ".pijul",
];

/** Folders whose every file is a control file, at any depth. */
export const CONTROL_DIRS: readonly string[] = [
  ".plangate",
  // Version control: each runs hooks or commands its settings name (`.hg/hgrc` hooks, jj's `ui.pager`).
  ".git",
  ".hg",
  ".jj",
  ".sl",
  // Agents' settings (hooks, MCP servers, plugins, start-up scripts).
  ".claude",
  ".opencode",
  ".cursor",
  ".gemini",
  ".qwen",
  ".codex",
  ".pi",
  ".factory",
  ".kilo",
  ".kilocode",
  // Amp's project settings hold Plangate's permission delegate; Crush's hold its hooks.
  ".amp",
  ".crush",
  ".openhands",
  // Editors: tasks run on folder open, language-server binaries, per-folder settings.
  ".vscode",
  ".idea",
  ".zed",
  ".fleet",
  ".helix",
  ".devcontainer",
  // Hook managers, cargo (`runner`, `rustc-wrapper`, `[alias]`), mise.
  ".husky",
  ".cargo",
  ".mise",
  ...WATCHED_DIRS,
];

/** Files that a shell, an interpreter, a tool or package manager, git, an editor, CI or an agent reads by itself. */
export const CONTROL_FILES: readonly string[] = [
  // Shells' start-up files, and what shell extensions source on `cd` (direnv, RVM, autoenv, zsh-autoenv).
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".envrc",
  ".rvmrc",
  ".versions.conf",
  ".ruby-env",
  ".rbenv-vars",
  ".env.leave",
  ".autoenv.zsh",
  ".autoenv_leave.zsh",
  ".inputrc",
  // Interpreters and debuggers that run a start-up file from the folder they start in.
  ".pythonrc",
  ".pdbrc",
  ".rprofile",
  ".renviron",
  ".iex.exs",
  ".erlang",
  ".irbrc",
  ".pryrc",
  ".jrubyrc",
  ".perldb",
  ".octaverc",
  ".ghci",
  ".ocamlinit",
  ".gnuplot",
  ".gdbinit",
  ".lldbinit",
  // Vim's and Neovim's 'exrc' (also their Windows names), the localvimrc plugin, Emacs' dir-locals.
  ".vimrc",
  ".gvimrc",
  "_vimrc",
  "_gvimrc",
  "_exrc",
  ".exrc",
  ".nvimrc",
  ".nvim.lua",
  ".lvimrc",
  ".dir-locals.el",
  ".dir-locals-2.el",
  // Package managers' own settings (registry, script shell, install hooks), not their manifests.
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".pnpmrc",
  ".pnpmfile.cjs",
  ".bowerrc",
  "bunfig.toml",
  "uv.toml",
  "pdm.toml",
  ".pdm.toml",
  "poetry.toml",
  "nuget.config",
  // Toolchains, tool managers and build tools' launchers: which program runs, or where it is downloaded from.
  "rust-toolchain",
  "rust-toolchain.toml",
  ".tool-versions",
  "mise.toml",
  ".mise.toml",
  ".rtx.toml",
  ".prototools",
  "global.json",
  "gradle.properties",
  ".bazelrc",
  "user.bazelrc",
  ".bazelversion",
  ".bazeliskrc",
  ".buckconfig",
  ".buckconfig.local",
  ".pants.rc",
  ".jvmopts",
  ".sbtopts",
  "directory.build.rsp",
  // Git: submodules (their URLs and update commands), git-lfs's settings, a config git may be pointed at.
  ".gitmodules",
  ".lfsconfig",
  ".gitconfig",
  // Hook managers and the programs the hooks they install run on every commit (see the patterns too).
  ".pre-commit-config.yaml",
  ".pre-commit-config.yml",
  ".overcommit.yml",
  // Editors and dev environments that run what a folder's settings say when it opens.
  ".devcontainer.json",
  ".gitpod.yml",
  ".gitpod.dockerfile",
  "devbox.json",
  "devenv.nix",
  "devenv.yaml",
  "devenv.local.nix",
  ".replit",
  "replit.nix",
  ".stackblitzrc",
  // CI: runs on the next push, with the repository's secrets.
  ".gitlab-ci.yml",
  ".travis.yml",
  ".drone.yml",
  ".woodpecker.yml",
  ".cirrus.yml",
  "appveyor.yml",
  ".appveyor.yml",
  "bitrise.yml",
  "codemagic.yaml",
  "buildspec.yml",
  "cloudbuild.yaml",
  "cloudbuild.yml",
  "bitbucket-pipelines.yml",
  "azure-pipelines.yml",
  "jenkinsfile",
  // Agents: settings that run programs or decide what a later session reads, and instructions it obeys.
  ".mcp.json",
  "opencode.json",
  "opencode.jsonc",
  ".crush.json",
  "crush.json",
  ".aider.conf.yml",
  ".aider.model.settings.yml",
  ".aider.model.metadata.json",
  ".roomodes",
  ".kilocodemodes",
  ".aiderignore",
  ".cursorignore",
  ".cursorindexingignore",
  ".geminiignore",
  ".codeiumignore",
  ".clineignore",
  ".rooignore",
  ".kilocodeignore",
  ".augmentignore",
  ".continueignore",
  ".crushignore",
  "agents.md",
  "agents.override.md",
  "agent.md",
  "claude.md",
  "claude.local.md",
  "gemini.md",
  "qwen.md",
  "crush.md",
  "warp.md",
  ".cursorrules",
  ".windsurfrules",
  ".continuerules",
  ".augment-guidelines",
  ".openhands_instructions",
  ".rules",
  ".goosehints",
];

/** Families of control files, by the shape of their names (matched against the folded name). */
export const CONTROL_FILE_PATTERNS: readonly RegExp[] = [
  // mise's `mise.<env>.toml`, `.mise.local.toml`…
  /^\.?mise\.[^/]+\.toml$/,
  // Hook managers: lefthook, husky 4, simple-git-hooks, and what husky's hooks run: lint-staged, commitlint.
  /^\.?lefthook(-local)?\.(ya?ml|jsonc?|toml)$/,
  /^\.huskyrc(\.[a-z]+)?$/,
  /^husky\.config\.[cm]?js$/,
  /^\.?simple-git-hooks\.(json|[cm]?js)$/,
  /^\.lintstagedrc(\.[a-z]+)?$/,
  /^lint-staged\.config\.[cm]?[jt]s$/,
  /^\.commitlintrc(\.[a-z]+)?$/,
  /^commitlint\.config\.[cm]?[jt]s$/,
  // Build tools' wrappers: the properties name the distribution `./gradlew` or `./mvnw` downloads and runs.
  /^(gradle|maven)-wrapper\.(properties|jar)$/,
  // Editors' project files: VS Code workspaces (tasks, settings), Sublime Text projects (build systems).
  /\.code-workspace$/,
  /\.sublime-project$/,
];

/** A folder or file that is control only inside a given folder: `.github/workflows`, not `.github/ISSUE_TEMPLATE`. */
export const CONTROL_SUBPATHS: readonly string[] = [
  ".github/workflows",
  ".github/actions",
  ".github/dependabot.yml",
  ".github/copilot-instructions.md",
  ".github/instructions",
  ".github/agents",
  ".github/prompts",
  ".github/chatmodes",
  // Copilot CLI runs the hooks there in a folder it trusts.
  ".github/hooks",
  ".gitea/workflows",
  ".forgejo/workflows",
  ".config/mise",
  ".config/mise.toml",
  ".config/git",
  "mise/config.toml",
  "gradle/wrapper",
  ".pixi/config.toml",
  ".yarn/releases",
  ".yarn/plugins",
  ".bundle/config",
];

/**
 * Inside a git folder, what runs code or redirects git to other settings: the config (and a worktree's), hooks,
 * attributes (info/), `commondir` (another common git folder), alternates (other object stores), and the
 * folders of linked worktrees and submodules, each with configs of their own. Commits write only objects,
 * refs, logs and the index, which stay writable from the shell.
 */
export const GIT_CONTROL: readonly string[] = [
  "config",
  "config.worktree",
  "commondir",
  "hooks",
  "info",
  "objects/info/alternates",
  "objects/info/http-alternates",
  "worktrees",
  "modules",
];
