'use client';
// "Needs you" (PERM-UI-1, UX-8): the agents' open permission requests at the top of
// Inbox, live from `permission.request` / `permission.list`; answered and expired ones
// leave, and with none open the section is not there at all.
import { useEffect, useMemo, useState } from 'react';
import { useRelay, type AppState } from '../../lib/store';
import { PermissionCard } from './PermissionCard';
import { needsYou } from './view-model';
import { QuestionCard, questionsShown } from '../questions/QuestionCard';

const selectPermissions = (s: AppState) => s.permissions;
const selectQuestions = (s: AppState) => s.questions;

export function NeedsYou() {
  const permissions = useRelay(selectPermissions);
  const questions = questionsShown(useRelay(selectQuestions) ?? {});
  const [now, setNow] = useState(() => Date.now());
  const hasOpen = Object.values(permissions).some((r) => r.status === 'pending') || questions.some((q) => q.status === 'pending');
  useEffect(() => {
    if (!hasOpen) return;
    // Re-render once a second while something is open, so a request flips to expired on time;
    // at once too: the last tick may be long past, and a new card's countdown must start from now.
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [hasOpen]);
  const requests = useMemo(() => needsYou(permissions, now), [permissions, now]);
  if (requests.length === 0 && questions.length === 0) return null;
  const open = requests.length + questions.filter((q) => q.status === 'pending' && Date.parse(q.expiresAt) > now).length;
  return (
    <section aria-labelledby="needs-you-title" data-testid="needs-you" className="stack" style={{ marginBottom: 20 }}>
      <h2 id="needs-you-title" className="group-title">Needs you ({open})</h2>
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {questions.map((q) => (
          <li key={q.id}><QuestionCard request={q} now={now} /></li>
        ))}
        {requests.map((r) => (
          <li key={r.id}><PermissionCard request={r} now={now} /></li>
        ))}
      </ul>
    </section>
  );
}
