// The small "<machine> · <repo>" label of a task (or a commander) once the home has
// member machines, and the offline marking of a member's tasks (FLEETUI-1, -2).
import { placeOf, type Place } from '../lib/machines';
import { useRelay, type AppState } from '../lib/store';

const selectFleet = (s: AppState) => s.machines;
const selectHome = (s: AppState) => s.home;
const selectRepos = (s: AppState) => s.repos;

/** Where a repo lives, or null when there is nothing to label (no member machines). */
export function useRepoPlace(repo: string): Place | null {
  const machines = useRelay(selectFleet);
  const home = useRelay(selectHome);
  const repos = useRelay(selectRepos);
  return placeOf({ machines, home, repos }, repo);
}

export function MachineLabel({ place }: { place: Place }) {
  return (
    <>
      <span className="machine-label" data-testid="machine-label">{place.machine}{place.repo ? ` · ${place.repo}` : ''}</span>
      {place.offline ? <span className="pill" data-tone="warn" data-testid="machine-offline">{place.offline}</span> : null}
    </>
  );
}
