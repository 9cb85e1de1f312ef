// The wire's frame schema (protocol/wire/frames.ts, zod) for the socket, loaded in steps.
// Building every zod schema the relay can send is the biggest piece of the client core's
// start-up; evaluated at once it was one long task that held up taps on a slow phone.
// Each step here evaluates a part of the schemas (the modules the next one needs first)
// and then gives the main thread back, so no step is a long task (FIRST-7).
//
// API:
//   loadServerFrame() → Promise<the ServerFrame schema> (once; later calls share it)
//   serverFrameSchema() → the schema once loaded, else null
import type { ServerFrame } from '../../protocol/wire/frames';

type Schema = { safeParse(raw: unknown): { success: true; data: ServerFrame } | { success: false } };

let schema: Schema | null = null;
let loading: Promise<Schema> | null = null;

/** Resolves on a later task: what waits for it runs after the browser had its turn (input, paint). */
const yieldToMain = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function serverFrameSchema(): Schema | null {
  return schema;
}

export function loadServerFrame(): Promise<Schema> {
  loading ??= (async () => {
    // In dependency order: each import evaluates only what the previous ones did not.
    await import('../../protocol/bus/ids');
    await yieldToMain();
    await import('../../protocol/bus/mcp-events');
    await yieldToMain();
    await import('../../protocol/bus/events');
    await yieldToMain();
    await import('../../protocol/wire/views');
    await yieldToMain();
    await Promise.all([import('../../protocol/wire/questions'), import('../../protocol/wire/machines')]);
    await yieldToMain();
    await Promise.all([import('../../protocol/live-events'), import('../../protocol/wire/errors')]);
    await yieldToMain();
    const { ServerFrame } = await import('../../protocol/wire/frames');
    schema = ServerFrame as unknown as Schema;
    return schema;
  })();
  return loading;
}
