// The app's words: one name for each thing a person sees (protocol/spec/vocabulary.md, VOCAB-1..8).
// Every screen takes its user-visible words from here, so a thing is never called two names;
// app/lib/words.test.ts fails on a banned synonym anywhere in app/.
//
// Other helpers: add your new words in your own clearly marked block at the end of this file.
import type { TaskStage } from '../../protocol/wire/views';

/** What a person leaves the agent is a Note (VOCAB-1); the action is "Add note", everywhere. */
export const NOTE = {
  noun: 'Note',
  plural: 'Notes',
  /** The action: buttons, menu items, the sheet's title. */
  add: 'Add note',
  send: 'Send note',
  /** The list of notes on a task. */
  listTitle: 'Notes for the agent',
  /** Accessible names of the note actions. */
  addTo: (task: string) => `Add note to ${task}`,
  addToFile: (path: string) => `Add note to the file ${path}`,
  addToLine: (line: string, path: string) => `Add note to line ${line} of ${path}`,
} as const;

/**
 * One word for each stage of a task's life (VOCAB-2), shown in the task header and wherever a
 * stage is named; the relay's stage ids (TaskLife.stage) and the bus states ("claimed", "inbox")
 * are never shown as they are.
 */
export const STAGE_WORD: Record<TaskStage, string> = {
  inbox: 'Inbox',
  running: 'Running',
  approval: 'Awaiting approval',
  approved: 'Approved, waiting for the agent’s commit',
  committed: 'Committed',
  merged: 'Merged',
  done: 'Done',
  failed: 'Failed',
};

/** The state a staged change waits in (VOCAB-2): "Awaiting approval", never "Needs approval". */
export const AWAITING_APPROVAL = STAGE_WORD.approval;

/** A verdict or a task's result is PASS or FAIL, in capitals (VOCAB-3); anything else as it came. */
export function verdictWord(v: string | null | undefined): string {
  if (v === undefined || v === null) return '';
  const low = v.toLowerCase();
  if (low === 'pass' || low === 'passed') return 'PASS';
  if (low === 'fail' || low === 'failed') return 'FAIL';
  return v;
}

/** Agents by the names their makers write (VOCAB-4). */
export const AGENT_NAME = { claude: 'Claude Code', opencode: 'OpenCode' } as const;

export function agentName(id: string | null | undefined): string {
  if (!id) return 'agent';
  return (AGENT_NAME as Record<string, string>)[id] ?? id;
}

/**
 * Who holds a claim, in words: a claim's owner is `<host>_<pid>` (CLAIM-3), the machine and the
 * process id of whatever ran `claim`, which reads as "demo-host (process 4242)"; anything else as it is.
 */
export function claimant(owner: string): string {
  const m = /^(.+)_(\d+)$/.exec(owner);
  return m ? `${m[1]} (process ${m[2]})` : owner;
}

/** Starting a commander (VOCAB-5): the button and the sheet say the same. */
export const START_COMMANDER = 'Start commander';

/** A job's status on the task screen, one word each (VOCAB-2). */
export const JOB_STATUS = { running: 'Running', done: 'Finished', failed: 'Failed', stopped: 'Stopped' } as const;

/** The merge button names where the work goes (VOCAB-6). */
export function mergeInto(base: string | null | undefined): string {
  return base ? `Merge into ${base}` : 'Merge into the default branch';
}

// ---- H1 (task stages, agent run, sheets): add words below this line ----

/** A failed agent run and readiness refusals (RUNFAIL-n, RUNREADY-n). */
export const AGENT_RUN_FAILURE = {
  details: 'Details',
  retry: 'Retry',
  noOutput: 'The agent printed nothing.',
  notStarted: 'Nothing was started.',
  /** A failed task's main action (TSTATE-8): the Run agent sheet again, the failed run's agent chosen. */
  runAgain: 'Run agent again',
  /** Retry refused before anything started (RUNFAIL-5): said apart from the failure it retried. */
  retryRefused: (why: string) => `Retry refused: ${why} ${AGENT_RUN_FAILURE.notStarted}`,
  /** An inbox task blocked by tasks not done (JOB-7): why there is no Run agent. */
  blocked: (ids: string[]) => `Blocked by ${ids.join(', ')}, not done yet: its agent could not claim it. Run agent comes back once ${ids.length === 1 ? 'that task is' : 'those are'} done.`,
} as const;

// ---- H3 (action bar, cards, inbox, sheets, settings): add words below this line ----

/** The Inbox group of tasks whose next step is the person's (TSTATE-7): a failed run, a commit to merge. */
export const WAITING_FOR_YOU = 'Waiting for you';

/** Why the bar has no Push or Open pull request (FINISH-10): the repo has no remote for the branch. */
export const NO_REMOTE = 'No remote to push to: add one with `git remote add origin <url>` on the relay’s machine.';

/** A card's stage pill (TSTATE-7): the stage's word, and for a done task whose commit is not merged, so. */
export function cardStageWord(stage: TaskStage, unmerged: boolean): string {
  return stage === 'done' && unmerged ? `${STAGE_WORD.done} · not merged` : STAGE_WORD[stage];
}

// ---- H4 (commanders): add words below this line ----

/** A commander's conversation screen (CHAT-n). */
export const COMMANDER_CHAT = {
  title: 'Conversation',
  empty: 'Nothing yet. Send a message below to give this commander its first job.',
  working: 'Working…',
  more: 'More',
  addReference: 'Add reference path',
  delete: 'Delete',
} as const;

// ---- H5 (photo attach): add words below this line ----

/** Attaching a photo to a note or a commander message (PHOTO-1). */
export const PHOTO = {
  add: 'Add photo',
  /** Where a sent note or message carried a photo. */
  attached: 'Photo attached',
  remove: 'Remove photo',
  preview: 'Photo to send',
  preparing: 'Preparing photo…',
  notAPicture: 'That file is not a picture this browser can open. Choose a photo.',
  tooLarge: 'That photo is too large to send, even made smaller.',
} as const;

// ---- H6 (first screen, pairing): add words below this line ----

// ---- H7 (a task's story: demo states, approved-waiting, job line): add words below this line ----

/**
 * Approved and waiting for the agent's commit, said one way (VOCAB-2): the stage (STAGE_WORD.approved,
 * the header and the Approve button's tooltip), the bar's line and the Changes line say the same words.
 */
export const APPROVED_WAITING = {
  stage: STAGE_WORD.approved,
  line: `${STAGE_WORD.approved}.`,
  change: (digest: string) => `Approved change, waiting for the agent’s commit · ${digest}`,
} as const;

/** What a job was started to do, beside its status pill (VOCAB-2). */
export const JOB_MODE = { work: 'Working', review: 'Reviewing' } as const;

/** A failed job's exit status beside its pill. */
export const jobExit = (code: number): string => `exit ${code}`;

/** The job's output box before the first line and after none. */
export const JOB_OUTPUT = { starting: 'Starting the agent…', none: 'No output.' } as const;

// ---- H-photos-retry (several photos, thumbnails, a commander's failed start): add words below this line ----

/** Several photos on a note or message and their thumbnails (PHOTO-8, PHOTO-10). */
export const PHOTOS = {
  /** A thumbnail's alt text: which photo of how many, and what tapping does. */
  thumb: (i: number, n: number): string => (n > 1 ? `Photo ${i} of ${n} attached` : 'Photo attached'),
  open: (i: number, n: number): string => (n > 1 ? `Open photo ${i} of ${n}` : 'Open photo'),
  large: (i: number, n: number): string => (n > 1 ? `Photo ${i} of ${n}, full size` : 'Photo, full size'),
  close: 'Close',
  /** The relay could not send the photo back (offline, or gone from its machine). */
  unavailable: 'Photo not available',
  group: 'Photos attached',
  tooMany: (max: number): string => `At most ${max} photos. Remove one to add another.`,
  removeOne: (i: number, n: number): string => (n > 1 ? `Remove photo ${i} of ${n}` : 'Remove photo'),
  addMore: 'Add another photo',
} as const;

/** A commander whose start failed (CMDRFAIL-n), said as a failed run is (RUNFAIL-1). */
export const COMMANDER_FAILURE = {
  title: 'This commander could not start.',
  retry: AGENT_RUN_FAILURE.retry,
  details: AGENT_RUN_FAILURE.details,
  retrying: 'Starting again…',
} as const;

/** A commander message the relay has not written yet (QUEUE-5), and a note sent from the Inbox (QUEUE-6). */
export const NOT_SENT_YET = {
  waiting: 'Waiting to send',
  /** A refusal that already says it was not done is not told twice ("Not sent. Not done: …"). */
  refused: (reason: string): string => (/^not\b/i.test(reason) ? reason : `Not sent. ${reason}`),
  copyBack: 'Copy back to the message box',
  photos: (n: number): string => (n === 1 ? '+ 1 photo' : `+ ${n} photos`),
  messagesQueued: (n: number): string => `You are offline: ${n === 1 ? 'the message' : `${n} messages`} will be sent when the connection is back.`,
  noteSaved: (task: string): string => `Note saved for ${task}. The agent sees it on its next turn.`,
  noteQueued: (task: string): string => `You are offline: the note for ${task} is queued and will be sent when the connection is back.`,
  noteUnavailable: 'The note form could not be loaded: this device is offline and had not downloaded it yet. Try again when the connection is back.',
  newTaskUnavailable: 'The New task form could not be loaded: this device is offline and had not downloaded it yet. Try again when the connection is back.',
} as const;
