'use client';
// Settings: this device (rename, revoke), other paired devices, the machines of the fleet, the notifications
// slot, and which relay this app talks to.
import { useRouter } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import type { DeviceView } from '../../protocol/wire/views';
import { plainLine } from '../../protocol/wire/plain-text';
import { Button } from '../components/Button';
import { act, read } from '../lib/actions';
import { clearDevice, renameStoredDevice } from '../lib/device-key';
import { sentence } from '../lib/errors';
import { appStore, useRelay, type AppState } from '../lib/store';
import { DeviceRow } from './device-row';
import { Notifications } from './notifications';
import { Machines } from './machines';
import { RenameForm } from './rename-form';

const selectDevice = (s: AppState) => s.device;
const selectDevices = (s: AppState) => s.devices;
const selectLive = (s: AppState) => s.connection.state === 'live';

export default function SettingsPage() {
  const router = useRouter();
  const device = useRelay(selectDevice);
  const devices = useRelay(selectDevices);
  const live = useRelay(selectLive);
  const [message, setMessage] = useState<string | null>(null);
  const [version, setVersion] = useState<string | null>(null);
  // Read after mount: the prerendered page has no location, and a differing first render is a hydration error (UX-12).
  const [origin, setOrigin] = useState('');
  useEffect(() => setOrigin(location.origin), []);

  const refresh = useCallback(() => {
    read('device.list', {})
      .then((result) => {
        const list = (result as { devices?: DeviceView[] } | null)?.devices;
        if (Array.isArray(list)) appStore.dispatch({ type: 'local.devices', devices: list });
      })
      .catch(() => undefined); // offline: the saved list stays on screen
  }, []);
  useEffect(() => {
    if (live) refresh();
  }, [live, refresh]);
  useEffect(() => {
    fetch('/healthz').then((r) => r.json()).then((h: { version?: string }) => setVersion(h.version ?? null)).catch(() => undefined);
  }, []);

  async function rename(name: string) {
    if (!device) return;
    const outcome = await act('device.rename', { device: device.id, name });
    if (outcome.status === 'refused') return setMessage(sentence(outcome.error));
    const updated = { ...device, name };
    appStore.dispatch({ type: 'local.device', device: updated });
    appStore.dispatch({ type: 'local.devices', devices: devices.map((d) => (d.id === device.id ? { ...d, name } : d)) });
    await renameStoredDevice(name);
    setMessage(outcome.status === 'queued' ? 'Renamed here; the relay will be told when the connection is back.' : 'Renamed.');
  }

  async function revoke(target: DeviceView) {
    const self = target.id === device?.id;
    // A browser dialog is plain text: an older name with a line break must not add a line (DEVNAME-2).
    if (!confirm(self ? 'Unpair this device? You will need a new pairing code to use it again.' : `Revoke ${plainLine(target.name, 80)}?`)) return;
    const outcome = await act('device.revoke', { device: target.id });
    if (outcome.status !== 'applied') return setMessage(outcome.error ? sentence(outcome.error) : 'Revoking needs a connection to the relay.');
    if (self) {
      await clearDevice();
      router.replace('/pair');
      location.reload();
    } else refresh();
  }

  const others = devices.filter((d) => d.id !== device?.id);
  return (
    <section aria-labelledby="settings-title" className="stack settings-page">
      <h1 id="settings-title" className="page-title">Settings</h1>
      <section className="card stack" aria-labelledby="this-device" data-testid="this-device">
        <h2 id="this-device" className="card-title">This device</h2>
        {device ? (
          <>
            <p>Paired as <strong data-testid="this-device-name">{device.name}</strong> <span className="muted mono">({device.id})</span></p>
            <RenameForm current={device.name} onRename={rename} />
            <Button variant="danger" onClick={() => void revoke(device)} data-testid="revoke-self">Unpair this device</Button>
          </>
        ) : (
          <p className="muted">Not connected yet — this shows once the relay has answered.</p>
        )}
        {message ? <p role="status" data-testid="settings-message">{message}</p> : null}
      </section>
      <section className="card stack" aria-labelledby="other-devices" data-testid="other-devices">
        <h2 id="other-devices" className="card-title">Other devices</h2>
        {others.length === 0 ? <p className="muted">No other devices are paired.</p> : others.map((d) => <DeviceRow key={d.id} device={d} onRevoke={() => void revoke(d)} />)}
        {/* OWNER-1: once the owner has left, no phone inherits it; say how to name one. */}
        {devices.length > 0 && !devices.some((d) => d.owner) ? (
          <p className="muted" data-testid="no-owner">
            No device is the owner, so no phone can revoke or rename another device. To name one, run <code>commandr devices owner &lt;id&gt;</code> on the relay&apos;s machine.
          </p>
        ) : null}
      </section>
      <section className="card stack" aria-labelledby="machines-title">
        <h2 id="machines-title" className="card-title">Machines</h2>
        <Machines />
      </section>
      <section className="card stack" aria-labelledby="notifications">
        <h2 id="notifications" className="card-title">Notifications</h2>
        <Notifications />
      </section>
      <section className="card stack" aria-labelledby="relay-info" data-testid="relay-info">
        <h2 id="relay-info" className="card-title">Relay</h2>
        <p>Address: <span className="mono wrap-anywhere" data-testid="relay-address">{origin}</span></p>
        <p>Version: <span data-testid="relay-version">{version ?? 'unknown (offline)'}</span></p>
      </section>
    </section>
  );
}
