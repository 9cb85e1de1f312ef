// One Inbox group: a heading with its count and its task cards, each with a quick
// note in the card's menu (not for done tasks). Every group looks alike and folds under
// its heading's chevron (ROOM-7); the Done group starts folded.
// A group shows its newest GROUP_PAGE cards and a "Show more" button for the next
// ones; the folded Done group renders no card until it is opened (FIRST-6): a repo of
// thousands of tasks costs the Inbox a bounded render, not one card per task.
// A group that appears renders its first FIRST_CARDS cards at once (more than a phone's
// screen holds) and the rest of its page right after, in a render React can pause for a
// tap (FIRST-7). The second step is a transition its first commit's effect starts, not
// useDeferredValue's initial value: React skips that in a render at offscreen priority,
// which is how it hydrates a Suspense boundary, so after a reload the Inbox had one commit.
import { memo, startTransition, useDeferredValue, useEffect, useState } from 'react';
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import type { GroupKey } from '../lib/inbox';
import { TaskCard } from './TaskCard';

export const GROUP_PAGE = 50;
export const FIRST_CARDS = 10;

// A live change to one task re-renders its card only.
const Card = memo(TaskCard);

export function InboxGroup({ group, repos, showRepo, onNote }: {
  group: { key: GroupKey; title: string; tasks: TaskSummary[] };
  repos: Record<string, RepoInfo>;
  showRepo: boolean;
  onNote: (task: TaskSummary) => void;
}) {
  const [limit, setLimit] = useState(GROUP_PAGE);
  const [grown, setGrown] = useState(false);
  useEffect(() => startTransition(() => setGrown(true)), []);
  // "Show more" renders its next page in the background too.
  const deferredLimit = useDeferredValue(limit);
  const shownLimit = grown ? deferredLimit : Math.min(deferredLimit, FIRST_CARDS);
  const [open, setOpen] = useState(group.key !== 'done');
  const heading = `${group.title} (${group.tasks.length})`;
  const shown = group.tasks.slice(0, shownLimit);
  const rest = group.tasks.length - Math.min(limit, group.tasks.length);
  const list = (
    <>
      <ul className="stack task-list" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {shown.map((task) => (
          <li key={`${task.repo}/${task.id}`}>
            <Card task={task} repoName={showRepo ? repos[task.repo]?.name : undefined} onNote={group.key !== 'done' ? onNote : undefined} />
          </li>
        ))}
      </ul>
      {rest > 0 ? (
        <button type="button" className="link-button" onClick={() => setLimit((n) => n + GROUP_PAGE)} data-testid={`group-more-${group.key}`}>
          Show {Math.min(rest, GROUP_PAGE)} more ({rest} not shown)
        </button>
      ) : null}
    </>
  );
  return (
    <section data-testid={`group-${group.key}`} aria-label={group.title}>
      <details className="group" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary className="group-summary"><h2 className="group-title">{heading}</h2></summary>
        {/* The folded Done group renders no card until it is opened (FIRST-6); the others keep theirs. */}
        {open || group.key !== 'done' ? list : null}
      </details>
    </section>
  );
}
