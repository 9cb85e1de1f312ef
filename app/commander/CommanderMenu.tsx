'use client';
// The commander's ⋯ menu in its header (CHAT-5): the rare actions, Add reference path and Delete,
// kept off the screen until asked for. Closes on a choice, on Escape and on a tap elsewhere.
import { useEffect, useRef, useState } from 'react';
import { COMMANDER_CHAT } from '../lib/words';

export function CommanderMenu({ onAddReference, onDelete }: { onAddReference(): void; onDelete(): void }) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => { if (!root.current?.contains(e.target as Node)) setOpen(false); };
    const escape = (e: KeyboardEvent) => { if (e.key === 'Escape') { setOpen(false); button.current?.focus(); } };
    document.addEventListener('pointerdown', away);
    document.addEventListener('keydown', escape);
    return () => {
      document.removeEventListener('pointerdown', away);
      document.removeEventListener('keydown', escape);
    };
  }, [open]);
  // The focus goes back to ⋯ before the sheet opens, so closing the sheet returns it there (A11Y-1).
  const choose = (action: () => void) => () => { setOpen(false); button.current?.focus(); action(); };
  return (
    <div className="cmdr-menu" ref={root}>
      <button ref={button} type="button" className="btn cmdr-menu-button" aria-label={COMMANDER_CHAT.more} aria-haspopup="menu" aria-expanded={open}
        onClick={() => setOpen((o) => !o)} data-testid="cmdr-menu">⋯</button>
      {open ? (
        <ul className="cmdr-menu-list" role="menu" data-testid="cmdr-menu-list">
          <li role="none"><button type="button" role="menuitem" onClick={choose(onAddReference)} data-testid="cmdr-add-ref">{COMMANDER_CHAT.addReference}</button></li>
          <li role="none"><button type="button" role="menuitem" data-variant="danger" onClick={choose(onDelete)} data-testid="cmdr-delete">{COMMANDER_CHAT.delete}</button></li>
        </ul>
      ) : null}
    </div>
  );
}
