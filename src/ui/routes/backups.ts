// Settings → Backups: the installation's backups (BACKUP_DIR, every BACKUP_INTERVAL), the last
// success and failure, and the recent runs with their sizes. They are the operator's, shown to
// the owners of the installation's first organization; anyone else is told who sees them.
import type { FastifyPluginAsync } from 'fastify';
import { formatDuration } from '../../lib/duration.ts';
import type { RouteDeps } from '../deps.ts';
import { render } from '../page.ts';
import { requireSeat, seatPrincipal } from '../session.ts';

export function backupRoutes(deps: RouteDeps): FastifyPluginAsync {
  const { backups } = deps.services;
  return async (app) => {
    app.get('/settings/backups', async (request, reply) => {
      const seat = requireSeat(request);
      const principal = seatPrincipal(seat);
      const owner = await backups.mayOverview(principal);
      const overview = owner ? await backups.overview(principal) : undefined;
      return render(request, reply, 'backups', {
        title: 'Backups',
        owner,
        overview,
        engine: backups.engine,
        interval: formatDuration(backups.settings.intervalMs),
      });
    });
  };
}
