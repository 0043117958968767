// The server's extension requests and commands (README "waveasm-lsp",
// /work/notes contracts). Shapes only; no VS Code API.

export interface LspPosition {
  line: number;
  character: number;
}
export interface LspRange {
  start: LspPosition;
  end: LspPosition;
}

/// `waveasm/assembly` {textDocument} -> the emitted `.s` and which input op
/// (its range) produced each output line.
export const ASSEMBLY_REQUEST = 'waveasm/assembly';
export interface AssemblyResult {
  version: number;
  text: string;
  map: { line: number; range: LspRange }[];
}

/// `waveasm/metrics` {textDocument} -> analysis/Metrics.h's JSON.
export const METRICS_REQUEST = 'waveasm/metrics';
export interface LoopMetrics {
  est_cycles_per_iter: number;
  lower_bound_cycles: number;
  /// busiest_unit, or "recurrence" (absent from older servers).
  bound_kind?: string;
  resource_bound_cycles?: number;
  busiest_unit: string;
  recurrence_bound_cycles?: number;
  /// Not a bound: what the global-load latency allows at the deepest
  /// prefetch the VGPR file holds at the program's occupancy (0: no load).
  latency_limited_cycles?: number;
  max_prefetch_distance?: number;
  critical_path: number;
}
export interface ProgramMetrics {
  name: string;
  peak_vgpr: number;
  peak_sgpr: number;
  peak_agpr: number;
  nops_inserted: number;
  waitcnts_inserted: number;
  total_instructions: number;
  est_cycles: number;
  occupancy: number;
  /// What limits occupancy (absent from servers before 0.2.0).
  occupancy_limit?: { limited_by: string; summary: string };
  loops: LoopMetrics[];
}
export interface MetricsResult {
  version: number;
  programs: ProgramMetrics[];
}

/// workspace/executeCommand commands the server provides.
export const SCHEDULE_LOOP_COMMAND = 'waveasm.scheduleLoop';
export const SHOW_METRICS_COMMAND = 'waveasm.showMetrics';
export type ScheduleStrategy = 'builtin' | 'llm';
export interface ScheduleLoopResult {
  applied: boolean;
  summary?: string;
  before?: unknown;
  after?: unknown;
}

/// `waveasm/pipelineSnapshots` {textDocument, index?, maxTextBytes?}: the
/// program after each pass (README "Pipeline view"). With `index`: that
/// snapshot's text.
export const PIPELINE_SNAPSHOTS_REQUEST = 'waveasm/pipelineSnapshots';
export interface SnapshotMetrics {
  instructions: number;
  peak_vgpr: number;
  peak_sgpr: number;
  peak_agpr: number;
  est_cycles: number;
}
export interface PipelineSnapshot {
  pass: string;
  changed: boolean;
  text?: string;
  metrics: SnapshotMetrics;
  failed?: boolean;
  diagnostics?: { message: string; range: LspRange }[];
}
export interface PipelineSnapshotsResult {
  version: number | null;
  stale: boolean;
  message?: string;
  textOnDemand?: boolean;
  snapshots: PipelineSnapshot[];
}
export interface SnapshotTextResult {
  version: number;
  index: number;
  pass: string;
  changed: boolean;
  text?: string;
}

/// `waveasm/liveAt` {textDocument, position}: the values live after the op.
export const LIVE_AT_REQUEST = 'waveasm/liveAt';
export interface LiveValue {
  name: string;
  class: string;
  width: number;
  register?: string;
  definition: LspRange;
  lastUse: LspRange | null;
  length: number;
}
export interface LiveAtResult {
  version: number;
  op: { name: string; range: LspRange } | null;
  liveRegisters?: { vgpr: number; sgpr: number; agpr: number };
  values: LiveValue[];
}
/// Server command: liveAt at the VGPR pressure peak plus {uri, peak}.
export const SHOW_LIVE_PEAK_COMMAND = 'waveasm.showLivePeak';
export interface LivePeakResult extends LiveAtResult {
  uri: string;
  peak: number;
}

/// `waveasm/schedule` {textDocument, position?, render?}: the schedule view
/// of the program or innermost loop at the position (else the first loop),
/// with the server's SVG picture and its style sheet for render "svg".
export const SCHEDULE_REQUEST = 'waveasm/schedule';
export interface ScheduleRow {
  line: number; // 1-based
  at?: [number, number]; // the op's name, 0-based line and character
  text: string;
  mnemonic: string;
  unit: string;
  issue: number;
  stall: number;
  stallReason?: string;
  latency: number;
  busy: number;
  inserted?: boolean;
  loop?: boolean;
  pressure: [number, number, number]; // VGPR, SGPR, AGPR
}
export interface ScheduleResult {
  version: number;
  title: string;
  program: string;
  kind: 'program' | 'loop';
  range: LspRange;
  cycles: number;
  rows: ScheduleRow[];
  units: { unit: string; busy: number }[];
  peak: Record<'vgpr' | 'sgpr' | 'agpr', { regs: number; row: number | null }>;
  occupancy: { waves: number; thresholds: { vgprs: number; waves: number }[] };
  mfma: { busy: number; utilization: number };
  svg?: string;
  css?: string;
  text?: string;
}

/// `waveasm/dependenceGraph` {textDocument, position?, render?: "svg" |
/// "none"}: the dependence graph of the innermost loop at the position
/// (else the first loop), as written; with the SVG and its style sheet for
/// render "svg".
export const DEPENDENCE_GRAPH_REQUEST = 'waveasm/dependenceGraph';
export interface DependenceNode {
  id: number;
  line: number; // 1-based
  at?: [number, number]; // the op's name, 0-based line and character
  mnemonic: string;
  text: string;
  unit: string;
  latency: number;
  height: number;
  critical?: boolean;
  layer: number;
  x: number;
  y: number;
}
export interface DependenceEdge {
  from: number;
  to: number;
  kind: 'data' | 'register' | 'memory' | 'barrier';
  latency: number;
  carried?: boolean;
  critical?: boolean;
  implied?: boolean;
}
export interface DependenceGraphResult {
  version: number;
  title: string;
  program: string;
  target: string;
  range: LspRange;
  criticalLength: number;
  criticalPath: number[];
  layers: number;
  nodes: DependenceNode[];
  edges: DependenceEdge[];
  svg?: string;
  css?: string;
}
