// vitest global set-up of the node project: a folder for this run's throwaway PostgreSQL cluster.
// The cluster itself starts on first use (src/test/postgres.ts), so runs without a PostgreSQL test
// pay nothing; the teardown stops and removes it, whatever the tests did.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { CLUSTER_PARENT, CLUSTER_PREFIX, stopCluster, stopClusterNow, sweepStaleClusters } from '../../scripts/postgres-cluster.mjs';

export default function setup(project: TestProject): (() => Promise<void>) | void {
  // A server of one's own: the tests make their databases there, nothing to start or stop.
  if (process.env.CHATSURFACE_TEST_PG_URL) return;
  sweepStaleClusters();
  const dir = mkdtempSync(join(CLUSTER_PARENT, CLUSTER_PREFIX));
  writeFileSync(join(dir, 'owner'), String(process.pid));
  project.provide('chatsurfacePgDir', dir);
  // Should vitest exit without its teardown (a crash, process.exit), the cluster still goes.
  const onExit = () => stopClusterNow(dir);
  process.once('exit', onExit);
  return async () => {
    process.off('exit', onExit);
    await stopCluster(dir);
  };
}
