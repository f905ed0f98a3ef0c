/**
 * The dashboard follows what happens (issue #34): a sign-up, a download, a new poster or category,
 * heard on the event stream from the back-office or the content apps, refreshes its counts and
 * charts quietly (the shown numbers stay until the new ones come), a second after the last.
 */
import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { EventArea } from '@master-admin/contract';
import { events, useResync } from '../../lib/events';

/** The areas whose changes move a figure the dashboard shows. */
const COUNTED: ReadonlySet<EventArea> = new Set<EventArea>([
  'users',
  'poster',
  'category',
  'specialDay',
]);
/** Changes heard within this long refresh once. */
export const DASHBOARD_REFRESH_DELAY_MS = 1_000;

export function useLiveDashboard() {
  const client = useQueryClient();
  const refresh = () => void client.invalidateQueries({ queryKey: ['dashboard'] });
  useResync(true, refresh);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = events.onChange((event) => {
      if (!COUNTED.has(event.area)) return;
      clearTimeout(timer);
      timer = setTimeout(
        () => void client.invalidateQueries({ queryKey: ['dashboard'] }),
        DASHBOARD_REFRESH_DELAY_MS,
      );
    });
    return () => {
      clearTimeout(timer);
      stop();
    };
  }, [client]);
}
