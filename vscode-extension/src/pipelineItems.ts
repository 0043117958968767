// What "WaveASM: Show Pipeline" lists: one quick-pick entry per snapshot of
// waveasm/pipelineSnapshots with its metric deltas; passes that changed
// nothing are marked and folded after the first of a run. No VS Code API.

import { PipelineSnapshot, SnapshotMetrics } from './protocol';

const METRICS: [keyof SnapshotMetrics, string][] = [
  ['peak_vgpr', 'VGPR'],
  ['peak_sgpr', 'SGPR'],
  ['peak_agpr', 'AGPR'],
  ['instructions', 'instrs'],
  ['est_cycles', 'slots'],
];

/// "VGPR 38→36 · instrs 120→116" (only what changed).
export function metricDelta(before: SnapshotMetrics | undefined, after: SnapshotMetrics): string {
  if (!before) return `VGPR ${after.peak_vgpr} · SGPR ${after.peak_sgpr} · ${after.instructions} instrs · ${after.est_cycles} slots`;
  const parts = METRICS.filter(([k]) => before[k] !== after[k]).map(([k, l]) => `${l} ${before[k]}→${after[k]}`);
  return parts.length ? parts.join(' · ') : 'metrics unchanged';
}

export interface PipelineItem {
  index: number; // into the snapshots
  label: string;
  description: string;
  detail?: string;
}

/// Entries to pick from: every changed (or failed) snapshot, and for each
/// run of unchanged ones a single folded entry naming them.
export function pipelineItems(snapshots: PipelineSnapshot[]): PipelineItem[] {
  const items: PipelineItem[] = [];
  for (let i = 0; i < snapshots.length; ) {
    const s = snapshots[i];
    if (i > 0 && !s.changed && !s.failed) {
      let j = i;
      while (j < snapshots.length && !snapshots[j].changed && !snapshots[j].failed) j++;
      const names = snapshots.slice(i, j).map((x) => x.pass);
      items.push({
        index: i,
        label: `$(fold) ${j - i} unchanged`,
        description: names.join(', '),
      });
      i = j;
      continue;
    }
    const prev = i > 0 ? snapshots[i - 1].metrics : undefined;
    items.push({
      index: i,
      label: `${i}. ${s.pass}${s.failed ? ' $(error) failed' : ''}`,
      description: metricDelta(prev, s.metrics),
      detail: s.failed ? (s.diagnostics ?? []).map((d) => d.message).join('\n') : undefined,
    });
    i++;
  }
  return items;
}
