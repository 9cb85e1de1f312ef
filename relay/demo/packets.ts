// The demo workspace's mission packets: one per state the app must show, each
// titled "Demo: …" so nobody mistakes them for real work.

export interface DemoPacket { file: string; id: string; text: string }

function packet(id: string, title: string, extra: string, criteria: string): DemoPacket {
  return {
    file: `${id}.md`,
    id,
    text: `---\nid: ${id}\ntype: implementation\nscope: src/**\n${extra}---\n# Demo: ${title}\n\n` +
      `## Context\nThis is a demo task created by Commandr so the app has something to show. Nothing real depends on it.\n\n` +
      `## Acceptance criteria\n- ${criteria}\n\n## Files to touch\n- src/greeting.js\n\n## Do not touch\n- .agents/\n`,
  };
}

/** In claim order (file names sort): the first four are claimed by the demo script. */
export const DEMO_PACKETS: readonly DemoPacket[] = [
  packet('demo-1-greeting', 'greet people by name', '', 'greet(name) returns "Hello, <name>!"'),
  packet('demo-2-typo', 'fix a typo in the README', '', 'README says "workspace", not "worksapce"'),
  packet('demo-3-flaky', 'make the slow test fast', '', 'the test suite runs in under a second'),
  packet('demo-4-docs', 'document the greeting', 'blocked-by: [demo-1-greeting]\n', 'README explains greet(name)'),
  packet('demo-5-research', 'compare greeting libraries', '', 'a short note comparing two libraries'),
];

export const REVIEW_TASK = 'demo-1-greeting';
export const PASS_TASK = 'demo-2-typo';
export const FAIL_TASK = 'demo-3-flaky';
export const BLOCKED_TASK = 'demo-4-docs';
export const INBOX_TASK = 'demo-5-research';
