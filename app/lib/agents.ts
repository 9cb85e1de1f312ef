// The agents a person can pick on the phone (UX-4, UX-6): the adapters that ship, named as
// their makers write them (VOCAB-4, app/lib/words.ts).
import { AGENT_NAME, agentName } from './words';

export const AGENTS = [
  { id: 'claude', label: AGENT_NAME.claude },
  { id: 'opencode', label: AGENT_NAME.opencode },
] as const;

export function agentLabel(id: string | undefined): string {
  return agentName(id);
}
