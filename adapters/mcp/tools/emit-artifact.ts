// `emit_artifact` (ARTIFACT-1, ARTIFACT-2): registers a file the agent produced
// (a screenshot, a report, a plan, a log) with an `artifact_emitted` event. Only a
// regular file inside the task's worktree (real paths compared), up to the size cap.
import * as crypto from 'node:crypto';
import { readArtifact } from '../../../bus/artifacts';
import { appendEvent } from '../../../bus/event-log';
import { noteProblem } from '../../../bus/progress';
import { EmitArtifactInput, EmitArtifactOutput } from '../../../protocol/mcp/tools';
import { guarded, ok, ToolError } from '../result';
import { taskFor } from '../task';
import { defineTool } from './tool';

export const emitArtifact = defineTool({
  name: 'emit_artifact',
  title: 'Show a file to the person',
  description:
    'Show the person a file you produced in this task\'s worktree: a screenshot, a test report, a plan, a log. Images show inline on their phone, markdown rendered, text highlighted, anything else as a download. `path` is relative to the worktree (or absolute inside it); at most 10 MB.',
  input: EmitArtifactInput,
  output: EmitArtifactOutput,
  run: (args, where) =>
    guarded(() => {
      const ctx = taskFor(args.task, where);
      if (args.summary !== undefined) {
        const problem = noteProblem(args.summary);
        if (problem) throw new ToolError('E_BAD_INPUT', `summary: ${problem}`);
      }
      const file = readArtifact(ctx.worktree, args.path, args.kind);
      const artifact = `a-${crypto.createHash('sha256').update(`${ctx.task}\n${file.relative}\n${file.digest}\n${Date.now()}\n${crypto.randomUUID()}`).digest('hex').slice(0, 20)}`;
      appendEvent(ctx.bus, {
        event: 'artifact_emitted', task: ctx.task, artifact, path: file.relative, worktree: ctx.worktree,
        kind: file.kind, bytes: file.bytes, digest: file.digest, title: args.title, summary: args.summary,
      });
      return ok(
        { task: ctx.task, artifact, path: file.relative, kind: file.kind, bytes: file.bytes },
        `Shown to the person as ${file.kind === 'file' ? 'a download' : `${file.kind === 'image' ? 'an' : 'a'} ${file.kind}`}: ${file.relative} (${file.bytes} bytes).`,
      );
    }),
});
