// Commands that run the project's own code (POLPATH-5): test runners, package scripts,
// build tools and interpreters given a file. The agent can write that code (a test file,
// a package.json script, a Makefile), so such a command can read or change anything the
// agent's user can, whatever its words say; it runs unasked only inside a sandbox.
import { type Invocation, programOf } from './command';

/** Programs that always run code the project (or its dependencies) supplies. */
const ALWAYS = new Set([
  'npx', 'pnpx', 'bunx', 'yarn', 'yarnpkg', 'pnpm', 'bun', 'deno', 'node', 'nodejs', 'tsx', 'ts-node', 'vite-node',
  'vitest', 'jest', 'mocha', 'ava', 'tap', 'playwright', 'cypress', 'karma', 'nyc', 'c8',
  'pytest', 'py.test', 'tox', 'nox', 'hatch', 'poetry', 'pipenv', 'uv', 'uvx',
  'make', 'gmake', 'bmake', 'just', 'task', 'rake', 'gradle', 'gradlew', 'mvn', 'mvnw', 'ant', 'sbt', 'cmake', 'ctest', 'ninja', 'meson', 'bazel', 'bazelisk', 'buck', 'scons',
  'ruby', 'rspec', 'perl', 'prove', 'php', 'phpunit', 'composer', 'lua', 'Rscript', 'julia', 'dotnet', 'mix', 'elixir', 'iex', 'erl', 'swift', 'xcodebuild',
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'fish', 'busybox', 'source', '.',
]);
/** Programs whose sub-command decides: these run scripts, builds (`build.rs`, `setup.py`) or tests. */
const SUBCOMMANDS: Record<string, RegExp> = {
  npm: /^(test|t|tst|run|run-script|rum|urn|start|stop|restart|exec|x|install|i|in|isntall|add|ci|clean-install|install-test|it|install-ci-test|cit|rebuild|rb|pack|publish|explore|link|ln|update|up)$/,
  go: /^(test|run|generate|build|install|vet|tool)$/,
  cargo: /^(test|t|run|r|build|b|check|c|bench|clippy|install|doc|d|fix|miri|nextest)$/,
  pip: /^(install|download|wheel)$/,
  bundle: /^(exec|install)$/,
};

/** A sentence saying what project code the invocation runs, or undefined when it runs none. */
export function runsOwnCode(inv: Invocation): string | undefined {
  const program = programOf(inv);
  if (!program) return undefined;
  const first = inv.argv[0]!.text;
  const sub = inv.argv.slice(1).find((w) => !w.text.startsWith('-'))?.text;
  const shown = `\`${[first, sub].filter(Boolean).join(' ')}\``;
  if (first.includes('/') && !/^\/(usr\/|bin\/|sbin\/|opt\/homebrew\/bin\/)/.test(first)) return `${shown} runs a program from a path the agent can write`;
  if (ALWAYS.has(program) || /^python[0-9.]*$/.test(program)) {
    return `${shown} runs the project's own code (tests, scripts or files the agent can write)`;
  }
  const key = program.replace(/[0-9.]+$/, '');
  const runs = SUBCOMMANDS[key];
  // Any word, not only the first: options before the sub-command (`npm --prefix x test`) take values.
  if (runs && inv.argv.slice(1).some((w) => runs.test(w.text))) return `${shown} runs the project's own code (scripts, builds or tests the agent can write)`;
  return undefined;
}
