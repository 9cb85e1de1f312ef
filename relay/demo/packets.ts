// The demo workspace's mission packets: one per state the app must show, each
// titled "Demo: …" so nobody mistakes them for real work.

export interface DemoPacket { file: string; id: string; text: string }

/** `touch`: the file the task changes, and its scope (src/greeting.js, src/** unless said). */
function packet(id: string, title: string, extra: string, criteria: string, touch?: { file: string; scope: string }): DemoPacket {
  const { file, scope } = touch ?? { file: 'src/greeting.js', scope: 'src/**' };
  return {
    file: `${id}.md`,
    id,
    text: `---\nid: ${id}\ntype: implementation\nscope: ${scope}\n${extra}---\n# Demo: ${title}\n\n` +
      `## Context\nThis is a demo task created by Commandr so the app has something to show. Nothing real depends on it.\n\n` +
      `## Acceptance criteria\n- ${criteria}\n\n## Files to touch\n- ${file}\n\n## Do not touch\n- .agents/\n`,
  };
}

/** In claim order (file names sort): all but the blocked one and the inbox one are claimed by the demo script. */
export const DEMO_PACKETS: readonly DemoPacket[] = [
  packet('demo-1-greeting', 'greet people by name', '', 'greet(name) returns "Hello, <name>!"'),
  packet('demo-2-typo', 'fix a typo in the README', '', 'README says "workspace", not "worksapce"', { file: 'README.md', scope: 'README.md' }),
  packet('demo-3-flaky', 'make the slow test fast', '', 'the test suite runs in under a second'),
  packet('demo-4-docs', 'document the greeting', 'blocked-by: [demo-1-greeting]\n', 'README explains greet(name)'),
  packet('demo-5-research', 'compare greeting libraries', '', 'a short note comparing two libraries'),
  packet('demo-6-shout', 'add a loud greeting', '', 'shout(name) returns "HELLO, <NAME>!"'),
  packet('demo-7-farewell', 'say goodbye too', '', 'farewell(name) returns "Goodbye, <name>!"'),
  packet('demo-8-french', 'greet in French too', '', 'greet(name, "fr") returns "Bonjour, <name> !"'),
  packet('demo-9-tests', 'test the greeting', '', 'a test covers greet() and greet(name)'),
];

export const REVIEW_TASK = 'demo-1-greeting';
/** Its fix committed with a signed approval, completed `pass`, merged into main (DEMO-STATES-6). */
export const PASS_TASK = 'demo-2-typo';
export const FAIL_TASK = 'demo-3-flaky';
export const BLOCKED_TASK = 'demo-4-docs';
export const INBOX_TASK = 'demo-5-research';
/** Merged into main by the relay's own merge (DEMO-STATES-2). */
export const MERGED_TASK = 'demo-6-shout';
/** Committed on agent/<id> with a signed approval, waiting to be merged (DEMO-STATES-1). */
export const COMMITTED_TASK = 'demo-7-farewell';
/** Its Claude Code run failed: not logged in (DEMO-STATES-3). */
export const FAILED_RUN_TASK = 'demo-8-french';
/** Claimed and working, nothing staged yet (DEMO-STATES-4). */
export const RUNNING_TASK = 'demo-9-tests';
