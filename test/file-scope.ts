// The `shared` project's setup file (SUITE-9): its test files share their worker process and its
// loaded modules (`isolate: false`), so each file gives back what it changed of the process: the
// environment (a file that sets COMMANDR_AGENT_ADAPTER must not choose the next file's agent) and
// the globals it added. Run before every such file; its afterAll runs after that file's last test.
// Globals named `__…` and symbols are vitest's and Node's own bookkeeping, added as they go: kept.
import { afterAll } from 'vitest';

const env = { ...process.env };
const globals = new Set(Object.getOwnPropertyNames(globalThis));

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!Object.hasOwn(env, key)) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (process.env[key] !== value) process.env[key] = value;
  for (const key of Object.getOwnPropertyNames(globalThis)) {
    if (!globals.has(key) && !key.startsWith('__')) Reflect.deleteProperty(globalThis, key);
  }
});
