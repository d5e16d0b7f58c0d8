//===- support/StageTimer.h - wall time of one pipeline stage ----*- C++ -*-===//
//
// --time-passes and ptxjit_result_stage report {stage, seconds} rows. A
// StageTimer measures one stage from construction to destruction (or stop())
// and appends the row to the list when one was given, so stages write
//   support::StageTimer t(times, "parse");
// instead of repeating the steady_clock arithmetic.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace support {

struct StageTime {
  std::string stage;
  double seconds = 0;
};

class StageTimer {
public:
  StageTimer(std::vector<StageTime> *out, std::string stage)
      : out_(out), stage_(std::move(stage)), start_(std::chrono::steady_clock::now()) {}
  StageTimer(const StageTimer &) = delete;
  StageTimer &operator=(const StageTimer &) = delete;
  ~StageTimer() { stop(); }
  // Records the row now (once); later calls and the destructor do nothing.
  void stop() {
    if (!out_) return;
    out_->push_back({std::move(stage_), seconds()});
    out_ = nullptr;
  }
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

private:
  std::vector<StageTime> *out_;
  std::string stage_;
  std::chrono::steady_clock::time_point start_;
};

} // namespace support
