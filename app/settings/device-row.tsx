// One paired device in Settings: name, when it was last seen, a revoke button.
import type { DeviceView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { clock, clockFull } from '../lib/clock';

export function DeviceRow({ device, onRevoke }: { device: DeviceView; onRevoke: () => void }) {
  return (
    <div className="row" data-testid="device-row" data-device={device.id} style={{ justifyContent: 'space-between' }}>
      <span>
        <strong>{device.name}</strong>{' '}
        <span className="muted">{device.lastSeenAt ? <>last seen <time dateTime={device.lastSeenAt} title={clockFull(new Date(device.lastSeenAt))}>{clock(new Date(device.lastSeenAt))}</time></> : 'never connected'}</span>
      </span>
      <Button variant="danger" onClick={onRevoke} aria-label={`Revoke ${device.name}`}>Revoke</Button>
    </div>
  );
}
