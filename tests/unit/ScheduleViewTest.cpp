//===- ScheduleViewTest.cpp - the data and pictures of waveasm/schedule ---===//
//
// The view's rows, stalls and peaks are checked against ProgramAnnotations
// directly (not against another rendering of the same numbers).

#include "ServerTestUtils.h"
#include "TestPaths.h"

#include <gtest/gtest.h>

#include "llvm/Support/MemoryBuffer.h"

using namespace waveasm;
using namespace waveasm::server;
using namespace waveasm::test;

namespace {

std::string readExample(llvm::StringRef name) {
  auto buffer = llvm::MemoryBuffer::getFile(
      (llvm::Twine(waveasm::test::examplesDir()) + "/" + name).str());
  EXPECT_TRUE(buffer) << name.str();
  return buffer ? (*buffer)->getBuffer().str() : std::string();
}

size_t occurrences(llvm::StringRef text, llvm::StringRef needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != llvm::StringRef::npos;
       at = text.find(needle, at + 1))
    ++n;
  return n;
}

struct GemmDoc : ServerDoc {
  GemmDoc() : ServerDoc(readExample("gemm_f16_32x32x8_global.mlir")) {}
  const ProgramAnnotations &ann() const {
    return *compiled->getPrograms()[0].annotations;
  }
};

} // namespace

TEST(ScheduleViews, FirstLoopRowsAreTheAnnotationsOfItsSteadyState) {
  GemmDoc d;
  ASSERT_TRUE(d.compiled->succeeded());
  std::optional<ScheduleView> view =
      computeScheduleView(*d.parsed, d.compiled.get(), std::nullopt);
  ASSERT_TRUE(view);
  ASSERT_EQ(view->loop, 0u);
  const ProgramAnnotations &ann = d.ann();
  const LoopTiming &loop = ann.getLoops()[0];
  EXPECT_EQ(view->cycles, loop.steadyStateCycles);

  // One row per issued op of the body, in order, with its steady timing.
  const ProgramIndex &index = ann.getIndex();
  std::vector<unsigned> issued;
  RegCounts peak;
  for (unsigned i = loop.index + 1; i <= index.getSubtreeEnd(loop.index); ++i) {
    const InstAnnotation &a = ann.getAll()[i];
    for (unsigned c = 0; c < 3; ++c)
      peak.regs[c] = std::max(peak.regs[c], a.pressure.regs[c]);
    if (a.issued)
      issued.push_back(i);
  }
  ASSERT_EQ(view->rows.size(), issued.size());
  int stalled = 0, inserted = 0;
  for (auto [row, point] : llvm::zip_equal(view->rows, issued)) {
    const InstAnnotation &a = ann.getAll()[point];
    EXPECT_EQ(row.point, point);
    EXPECT_EQ(row.issue, a.steadyIssueCycle) << row.text;
    EXPECT_EQ(row.stall, a.steadyStall) << row.text;
    EXPECT_EQ(row.latency, a.latency) << row.text;
    EXPECT_EQ(row.unit, a.unit) << row.text;
    EXPECT_FALSE(row.loop);
    stalled += row.stall > 0;
    inserted += row.inserted;
    // Every row reveals an op of the document, on the line it names.
    ASSERT_NE(row.opEntry, OpEntry::kNone) << row.text;
    EXPECT_EQ(row.line, row.range.start.line + 1);
  }
  EXPECT_GT(stalled, 0);
  EXPECT_GT(inserted, 0) << "the pipeline's waits are rows too";
  // The MFMA after the inserted lgkmcnt wait stalls 18 slots (README).
  auto mfma = llvm::find_if(view->rows, [](const ScheduleRow &r) {
    return r.mnemonic == "v_mfma_f32_32x32x8_f16";
  });
  ASSERT_NE(mfma, view->rows.end());
  EXPECT_EQ(mfma->unit, ExecUnit::MFMA);
  EXPECT_GT(mfma->busy, 1) << "an MFMA holds its pipe for its passes";

  EXPECT_EQ(view->peak, peak);
  size_t peakRow = view->peakRow[0];
  ASSERT_LT(peakRow, view->rows.size());
  EXPECT_EQ(view->rows[peakRow].pressure.vgprs(), peak.vgprs());
  for (size_t r = 0; r < peakRow; ++r)
    EXPECT_LT(view->rows[r].pressure.vgprs(), peak.vgprs());

  // MFMA pipe: the passes of the body's MFMAs over the iteration.
  EXPECT_GT(view->mfmaBusy, 0);
  EXPECT_DOUBLE_EQ(view->mfmaUtilization,
                   double(view->mfmaBusy) / double(view->cycles));
  // The occupancy thresholds are the target's table, ascending.
  ASSERT_FALSE(view->thresholds.empty());
  EXPECT_EQ(view->thresholds.front().vgprs,
            ann.getTarget().vgprOccupancy.front().first);
  EXPECT_EQ(view->occupancy,
            d.compiled->getPrograms()[0].result.metrics.occupancy);
}

TEST(ScheduleViews, PositionPicksTheProgramOrTheLoop) {
  GemmDoc d;
  std::optional<ScheduleView> program = computeScheduleView(
      *d.parsed, d.compiled.get(), d.pos("waveasm.program"));
  ASSERT_TRUE(program);
  EXPECT_FALSE(program->loop);
  // The program's peak is the annotations' own (loop bodies included: the
  // loop's summary row holds its body's registers).
  const ProgramAnnotations &ann = d.ann();
  EXPECT_EQ(program->peak.vgprs(), ann.getPeak(RegClass::VGPR).regs);
  EXPECT_EQ(program->peak.sgprs(), ann.getPeak(RegClass::SGPR).regs);
  EXPECT_EQ(program->cycles, ann.getTotalCycles());
  auto loops = llvm::count_if(program->rows,
                              [](const ScheduleRow &r) { return r.loop; });
  EXPECT_EQ(loops, 1);

  std::optional<ScheduleView> loop = computeScheduleView(
      *d.parsed, d.compiled.get(), d.pos("v_mfma_f32_32x32x8_f16"));
  ASSERT_TRUE(loop);
  EXPECT_EQ(loop->loop, 0u);
  EXPECT_TRUE(llvm::StringRef(loop->title).contains("loop at line"));

  // Without a fresh compile there is nothing to draw.
  ServerDoc stale(d.text + "// edited\n", /*compile=*/false);
  EXPECT_FALSE(
      computeScheduleView(*stale.parsed, d.compiled.get(), std::nullopt));
}

TEST(ScheduleViews, AllViewsShowEveryInstructionOnce) {
  GemmDoc d;
  std::vector<ScheduleView> views =
      computeAllScheduleViews(*d.parsed, d.compiled.get());
  const ProgramAnnotations &ann = d.ann();
  ASSERT_EQ(views.size(), 1 + ann.getLoops().size());
  size_t rows = 0;
  for (const ScheduleView &view : views)
    rows +=
        llvm::count_if(view.rows, [](const ScheduleRow &r) { return !r.loop; });
  size_t issued = llvm::count_if(
      ann.getAll(), [](const InstAnnotation &a) { return a.issued; });
  EXPECT_EQ(rows, issued);
}

TEST(ScheduleViews, PicturesAndJSON) {
  GemmDoc d;
  std::optional<ScheduleView> view =
      computeScheduleView(*d.parsed, d.compiled.get(), std::nullopt);
  ASSERT_TRUE(view);
  std::string svg = renderScheduleSvg(*view);
  llvm::StringRef s = svg;
  EXPECT_TRUE(s.starts_with("<svg class=\"wsv\""));
  EXPECT_EQ(occurrences(s, "<g class=\"r\"") + occurrences(s, "<g class=\"r "),
            view->rows.size());
  EXPECT_EQ(occurrences(s, " data-op=\""), view->rows.size());
  EXPECT_GT(occurrences(s, "<rect class=\"st\""), 0u) << "stall bars";
  EXPECT_EQ(occurrences(s, "<g class=\"pk pv-k\""), 1u)
      << "the VGPR peak marker";
  EXPECT_GT(occurrences(s, "<g class=\"th\""), 0u) << "occupancy thresholds";
  EXPECT_EQ(occurrences(s, "<g class=\"lane u-mfma\""), 1u);
  EXPECT_FALSE(s.contains("http")) << "no reference outside the page";
  EXPECT_FALSE(s.contains("<script"));
  // Every class the picture uses is styled.
  EXPECT_TRUE(getScheduleCss().contains(".wsv .st"));
  EXPECT_TRUE(getScheduleCss().contains(".wsv .u-mfma"));

  std::string text = renderScheduleText(*view);
  EXPECT_TRUE(llvm::StringRef(text).contains("v_mfma_f32_32x32x8_f16"));
  EXPECT_TRUE(llvm::StringRef(text).contains(
      "◀ peak VGPR " + std::to_string(view->peak.vgprs())));
  // A header, the lanes, a blank line, the table header, then one line per
  // row.
  EXPECT_GE(occurrences(text, "\n"), view->rows.size() + 4);

  llvm::json::Value json =
      scheduleViewToJSON(*view, /*version=*/7, ScheduleRender::SVG);
  const llvm::json::Object &o = *json.getAsObject();
  EXPECT_EQ(o.getInteger("version"), 7);
  EXPECT_EQ(o.getString("kind"), "loop");
  EXPECT_EQ(o.getArray("rows")->size(), view->rows.size());
  EXPECT_EQ(o.getObject("peak")->getObject("vgpr")->getInteger("regs"),
            view->peak.vgprs());
  EXPECT_EQ(o.getString("svg"), svg);
  EXPECT_TRUE(o.getString("css"));
  const llvm::json::Object &row0 = *(*o.getArray("rows"))[0].getAsObject();
  EXPECT_EQ(row0.getInteger("issue"), view->rows[0].issue);
  const llvm::json::Array *at = row0.getArray("at");
  ASSERT_TRUE(at);
  EXPECT_EQ((*at)[0].getAsInteger(), view->rows[0].range.start.line);
  EXPECT_EQ((*at)[1].getAsInteger(), view->rows[0].range.start.character);
  EXPECT_FALSE(scheduleViewToJSON(*view, 7, ScheduleRender::None)
                   .getAsObject()
                   ->get("svg"));
}
