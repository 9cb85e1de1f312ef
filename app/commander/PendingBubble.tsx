'use client';
// One message the relay has not written to the log yet (QUEUE-5): the person's bubble, marked
// "Waiting to send" while it waits, plain once sent, and, refused, the reason and a way to get the
// words back into the message box.
import { Button } from '../components/Button';
import { NOT_SENT_YET } from '../lib/words';
import type { PendingMessage } from './pending';

export function PendingBubble({ message, onCopyBack }: { message: PendingMessage; onCopyBack(): void }) {
  return (
    <div className="chat-pending" data-testid="chat-pending" data-state={message.state}>
      <div className="bubble" data-side="person" data-state={message.state}>
        {message.text ? <p>{message.text}</p> : null}
        {message.photos > 0 ? <p className="bubble-meta">{NOT_SENT_YET.photos(message.photos)}</p> : null}
        {message.state === 'waiting' ? <p className="bubble-meta" data-testid="chat-pending-state"><span aria-hidden="true">◷ </span>{NOT_SENT_YET.waiting}</p> : null}
      </div>
      {message.state === 'refused' ? (
        <div className="chat-refused" role="alert">
          <p data-testid="chat-pending-reason">{NOT_SENT_YET.refused(message.reason ?? '')}</p>
          {message.text ? <Button onClick={onCopyBack} data-testid="chat-copy-back">{NOT_SENT_YET.copyBack}</Button> : null}
        </div>
      ) : null}
    </div>
  );
}
