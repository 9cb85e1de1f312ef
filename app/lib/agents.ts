// The agents a person can pick on the phone (UX-4, UX-6): the adapters that ship.
export const AGENTS = [
  { id: 'claude', label: 'Claude Code' },
  { id: 'opencode', label: 'OpenCode' },
] as const;

export function agentLabel(id: string | undefined): string {
  return AGENTS.find((a) => a.id === id)?.label ?? id ?? 'agent';
}
