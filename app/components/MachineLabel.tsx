// The small "<machine> · <repo>" label of a task or commander, and the offline mark (FLEETUI-1, -2).
import { placeOf, type Place } from '../lib/machines';
import { useRelay, type AppState } from '../lib/store';

const selectFleet = (s: AppState) => s.machines;
const selectHome = (s: AppState) => s.home;
const selectRepos = (s: AppState) => s.repos;

/** Where a repo lives, or null when there is nothing to label (no member machines). */
export function useRepoPlace(repo: string): Place | null {
  return placeOf({ machines: useRelay(selectFleet), home: useRelay(selectHome), repos: useRelay(selectRepos) }, repo);
}

export function MachineLabel({ place }: { place: Place }) {
  return (
    <>
      <span className="machine-label" data-testid="machine-label">{place.machine}{place.repo ? ` · ${place.repo}` : ''}</span>
      {place.offline ? <span className="pill" data-tone="warn" data-testid="machine-offline">{place.offline}</span> : null}
    </>
  );
}
