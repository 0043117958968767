//===- MetricsJSON.cpp - the JSON form of program metrics -----------------===//
//
// Key names are part of the Conductor's interface (Metrics.h): exactly the
// snake_case names of the fields, nothing else.
//
//===----------------------------------------------------------------------===//

#include "analysis/Metrics.h"
#include "support/BoundedJson.h"

using namespace waveasm;
namespace json = llvm::json;

json::Value waveasm::toJSON(const LoopMetrics &m) {
  return json::Object{
      {"est_cycles_per_iter", m.est_cycles_per_iter},
      {"steady_iterations", m.steady_iterations},
      {"trip_count", m.trip_count},
      {"trip_count_source", m.trip_count_source},
      {"lower_bound_cycles", m.lower_bound_cycles},
      {"bound_kind", m.bound_kind},
      {"resource_bound_cycles", m.resource_bound_cycles},
      {"busiest_unit", m.busiest_unit},
      {"recurrence_bound_cycles", m.recurrence_bound_cycles},
      {"memory_recurrence_bound_cycles", m.memory_recurrence_bound_cycles},
      {"latency_limited_cycles", m.latency_limited_cycles},
      {"prefetch_distance", m.prefetch_distance},
      {"max_prefetch_distance", m.max_prefetch_distance},
      {"critical_path", m.critical_path},
      {"coaccess_cost", m.coaccess_cost},
      {"coaccess_modularity", m.coaccess_modularity},
      {"coaccess_clusters", m.coaccess_clusters}};
}

json::Value waveasm::toJSON(const OccupancyLimitMetrics &m) {
  return json::Object{
      {"limited_by", m.limited_by},
      {"summary", m.summary},
      {"waves", json::Object{{"vgpr", m.vgpr_waves},
                             {"sgpr", m.sgpr_waves},
                             {"lds", m.lds_waves},
                             {"workgroup", m.workgroup_waves}}},
      {"next_wave",
       json::Object{{"cut", m.next_wave_cut}, {"waves", m.next_wave_waves}}}};
}

bool waveasm::fromJSON(const json::Value &value, OccupancyLimitMetrics &m,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  if (!o || !o.map("limited_by", m.limited_by) || !o.map("summary", m.summary))
    return false;
  const json::Object *object = value.getAsObject();
  const json::Object *waves = object->getObject("waves");
  const json::Object *next = object->getObject("next_wave");
  if (!waves || !next) {
    path.report("expected waves and next_wave objects");
    return false;
  }
  auto get = [](const json::Object *from, llvm::StringRef key, int64_t &out) {
    std::optional<int64_t> v = from->getInteger(key);
    out = v.value_or(0);
    return v.has_value();
  };
  if (get(waves, "vgpr", m.vgpr_waves) && get(waves, "sgpr", m.sgpr_waves) &&
      get(waves, "lds", m.lds_waves) &&
      get(waves, "workgroup", m.workgroup_waves) &&
      get(next, "cut", m.next_wave_cut) &&
      get(next, "waves", m.next_wave_waves))
    return true;
  path.report("expected integer wave counts");
  return false;
}

json::Value waveasm::toJSON(const ProgramMetrics &m) {
  json::Array loops;
  for (const LoopMetrics &loop : m.loops)
    loops.push_back(toJSON(loop));
  json::Object program{{"name", m.name},
                       {"peak_vgpr", m.peak_vgpr},
                       {"peak_sgpr", m.peak_sgpr},
                       {"peak_agpr", m.peak_agpr},
                       {"nops_inserted", m.nops_inserted},
                       {"waitcnts_inserted", m.waitcnts_inserted},
                       {"total_instructions", m.total_instructions},
                       {"est_cycles", m.est_cycles},
                       {"occupancy", m.occupancy},
                       {"occupancy_limit", toJSON(m.occupancy_limit)},
                       {"loops", std::move(loops)}};
  // Only where it was computed (CompileOptions::programBound).
  if (!m.bound_kind.empty()) {
    program["lower_bound_cycles"] = m.lower_bound_cycles;
    program["bound_kind"] = m.bound_kind;
  }
  return program;
}

bool waveasm::fromJSON(const json::Value &value, LoopMetrics &m,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("est_cycles_per_iter", m.est_cycles_per_iter) &&
         o.map("lower_bound_cycles", m.lower_bound_cycles) &&
         o.map("busiest_unit", m.busiest_unit) &&
         o.map("critical_path", m.critical_path) &&
         // Optional: cache entries written before these fields existed.
         o.mapOptional("steady_iterations", m.steady_iterations) &&
         o.mapOptional("trip_count", m.trip_count) &&
         o.mapOptional("trip_count_source", m.trip_count_source) &&
         o.mapOptional("bound_kind", m.bound_kind) &&
         o.mapOptional("resource_bound_cycles", m.resource_bound_cycles) &&
         o.mapOptional("recurrence_bound_cycles", m.recurrence_bound_cycles) &&
         o.mapOptional("memory_recurrence_bound_cycles",
                       m.memory_recurrence_bound_cycles) &&
         o.mapOptional("latency_limited_cycles", m.latency_limited_cycles) &&
         o.mapOptional("prefetch_distance", m.prefetch_distance) &&
         o.mapOptional("max_prefetch_distance", m.max_prefetch_distance) &&
         o.mapOptional("coaccess_cost", m.coaccess_cost) &&
         o.mapOptional("coaccess_modularity", m.coaccess_modularity) &&
         o.mapOptional("coaccess_clusters", m.coaccess_clusters);
}

bool waveasm::fromJSON(const json::Value &value, ProgramMetrics &m,
                       json::Path path) {
  json::ObjectMapper o(value, path);
  return o && o.map("name", m.name) && o.map("peak_vgpr", m.peak_vgpr) &&
         o.map("peak_sgpr", m.peak_sgpr) && o.map("peak_agpr", m.peak_agpr) &&
         o.map("nops_inserted", m.nops_inserted) &&
         o.map("waitcnts_inserted", m.waitcnts_inserted) &&
         o.map("total_instructions", m.total_instructions) &&
         o.map("est_cycles", m.est_cycles) && o.map("occupancy", m.occupancy) &&
         o.mapOptional("occupancy_limit", m.occupancy_limit) &&
         o.mapOptional("lower_bound_cycles", m.lower_bound_cycles) &&
         o.mapOptional("bound_kind", m.bound_kind) && o.map("loops", m.loops);
}

json::Value waveasm::metricsToJSON(llvm::ArrayRef<ProgramMetrics> programs) {
  json::Array array;
  for (const ProgramMetrics &m : programs)
    array.push_back(toJSON(m));
  return json::Object{{"programs", std::move(array)}};
}

void waveasm::writeMetricsJSON(llvm::raw_ostream &os,
                               llvm::ArrayRef<ProgramMetrics> programs,
                               bool pretty) {
  json::Value value = metricsToJSON(programs);
  if (pretty)
    os << llvm::formatv("{0:2}", value) << "\n";
  else
    os << value << "\n";
}

llvm::Expected<std::vector<ProgramMetrics>>
waveasm::parseMetricsJSON(llvm::StringRef text) {
  llvm::Expected<json::Value> value = parseJsonBounded(text);
  if (!value)
    return value.takeError();
  std::vector<ProgramMetrics> programs;
  json::Path::Root root("metrics");
  json::ObjectMapper o(*value, root);
  if (!o || !o.map("programs", programs))
    return root.getError();
  return programs;
}
