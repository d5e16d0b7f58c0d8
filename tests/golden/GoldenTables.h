// GoldenTables.h -- reader for the NVIDIA golden tables (tests/golden/data).
//
// The data directory holds manifest.json (written by scripts/golden/gen.py, format described in
// tests/golden/README.md) and one zstd-compressed <family>.bin.zst per family with the outputs an
// H200 produced for every form.  This reader parses the manifest, rebuilds each form's input
// recipe for golden_inputs.h, decompresses a family and hands out output values by
// (form, output index, row).  It is shared by the table sanity check and by the emulator
// comparison test, so both read the tables the same way.
#pragma once

#include "golden_inputs.h"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace golden {

struct Form {
  std::string family, name, entry;
  std::vector<std::string> inputs;    // input class names (golden_inputs.h)
  std::vector<std::string> outputs;   // "b16" | "b32" | "b64" | "u32pred"
  std::vector<unsigned> outputBytes;  // 2, 4 or 8
  Recipe recipe;
  uint64_t inputsHash = 0;
  size_t rows = 0, offset = 0, bytes = 0;
  bool exact = true;
  std::optional<double> ulpBound;
  std::string note;
  std::vector<std::string> ptx;  // the instruction(s) under test, as in the kernel body

  size_t rowBytes() const {
    size_t s = 0;
    for (unsigned b : outputBytes) s += b;
    return s;
  }
  /// Output j of row r, zero-extended, read from the family's decompressed data.
  uint64_t output(const uint8_t *familyData, unsigned j, size_t r) const {
    size_t off = offset;
    for (unsigned k = 0; k < j; ++k) off += rows * outputBytes[k];
    off += r * outputBytes[j];
    uint64_t v = 0;
    for (unsigned b = 0; b < outputBytes[j]; ++b) v |= (uint64_t)familyData[off + b] << (8 * b);
    return v;
  }
};

struct Family {
  std::string name, ptxFile, dataFile;
  size_t bytes = 0;
  std::vector<Form> forms;
};

struct Manifest {
  std::string ptxVersion, target;
  size_t totalBytes = 0, numForms = 0;
  std::vector<Family> families;
  std::vector<std::string> rejected;  // "name: ptxas message"
};

/// Parses DIR/manifest.json.
llvm::Expected<Manifest> loadManifest(const std::string &dataDir);

/// Decompresses DIR/<family>.bin.zst; fails unless it decompresses to exactly fam.bytes bytes.
llvm::Expected<std::vector<uint8_t>> loadFamilyData(const std::string &dataDir, const Family &fam);

}  // namespace golden
